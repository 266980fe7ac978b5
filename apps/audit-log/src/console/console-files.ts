import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';

/** One built file of the console, read once at start (the whole console is a few hundred kB). */
export interface ConsoleFile {
  readonly body: Buffer;
  readonly contentType: string;
  /** Vite's hashed assets never change under a name; index.html must be revalidated. */
  readonly immutable: boolean;
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The console's built files by URL path (`/console/` → index.html), or an empty map when the console is not
 * built. Only the files found at start are ever served: a request path is a key of this map, never joined onto
 * the file system, so no path can reach outside the folder.
 */
export function loadConsoleFiles(dir: string): ReadonlyMap<string, ConsoleFile> {
  const files = new Map<string, ConsoleFile>();
  if (!existsSync(join(dir, 'index.html'))) return files;
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        const contentType = CONTENT_TYPES[extname(entry.name)];
        if (contentType === undefined) continue;
        const url = `/console/${relative(dir, path).split(sep).join('/')}`;
        files.set(url, { body: readFileSync(path), contentType, immutable: url.startsWith('/console/assets/') });
      }
    }
  };
  walk(dir);
  const index = files.get('/console/index.html');
  if (index !== undefined) files.set('/console/', index);
  return files;
}
