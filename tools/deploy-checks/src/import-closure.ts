import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';

/** What a built entry point loads at run time. */
export interface ImportClosure {
  /** Repository-relative files reached by relative imports, the entry included. */
  readonly files: readonly string[];
  /** Workspace libraries reached through `@llm-stream/<lib>` (their own imports followed too). */
  readonly workspaceLibs: readonly string[];
  /** Third-party packages imported by any reached file (`name` or `@scope/name`). */
  readonly packages: readonly string[];
  /** Relative imports that point to no file: the image would fail at start. */
  readonly missing: readonly string[];
}

// Compiled TypeScript writes `import … from '…'`, `export … from '…'`, `import '…'` and `import('…')`.
// A specifier starts like a package, a path or a node: builtin; that keeps `['from', 'to']` in a string out.
const SPECIFIERS = [/\bfrom\s*['"]([@./\w][^'"]*)['"]/g, /\bimport\s*['"]([@./\w][^'"]*)['"]/g, /\bimport\(\s*['"]([@./\w][^'"]*)['"]\s*\)/g];
const WORKSPACE_SCOPE = '@llm-stream/';

function specifiersOf(source: string): string[] {
  return SPECIFIERS.flatMap((pattern) => [...source.matchAll(pattern)].map((match) => match[1] ?? ''));
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

function isBuiltin(specifier: string): boolean {
  return specifier.startsWith('node:') || builtinModules.includes(packageName(specifier));
}

/** A workspace library's entry file, from its package.json `exports['.']` (or `main`). */
function libraryEntry(root: string, lib: string): string | null {
  const manifest = join(root, 'libs', lib, 'package.json');
  if (!existsSync(manifest)) return null;
  const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { exports?: Record<string, unknown>; main?: string };
  const dot = parsed.exports?.['.'];
  const target = typeof dot === 'string' ? dot : typeof dot === 'object' && dot !== null ? (dot as { default?: string }).default : parsed.main;
  return target === undefined ? null : join(root, 'libs', lib, target);
}

/** Follows the imports of `entry` (repository-relative, e.g. apps/gateway/dist/main.js). */
export function importClosure(root: string, entry: string): ImportClosure {
  const files = new Set<string>();
  const libs = new Set<string>();
  const packages = new Set<string>();
  const missing: string[] = [];
  const pending = [resolve(root, entry)];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    const path = relative(root, file);
    if (files.has(path)) continue;
    if (!existsSync(file)) {
      missing.push(path);
      continue;
    }
    files.add(path);
    for (const specifier of specifiersOf(readFileSync(file, 'utf8'))) {
      if (specifier.startsWith('.')) {
        pending.push(resolve(dirname(file), specifier));
      } else if (specifier.startsWith(WORKSPACE_SCOPE)) {
        const lib = specifier.slice(WORKSPACE_SCOPE.length).split('/')[0] ?? '';
        libs.add(lib);
        const libEntry = libraryEntry(root, lib);
        if (libEntry === null) missing.push(specifier);
        else pending.push(libEntry);
      } else if (!isBuiltin(specifier)) {
        packages.add(packageName(specifier));
      }
    }
  }
  return { files: [...files].sort(), workspaceLibs: [...libs].sort(), packages: [...packages].sort(), missing };
}
