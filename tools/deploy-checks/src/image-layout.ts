import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix, relative } from 'node:path';
import type { Dockerfile } from './dockerfile.js';
import { IMAGE_ROOT } from './dockerfile-rules.js';

interface LockEntry {
  readonly dev?: boolean;
  readonly link?: boolean;
  readonly resolved?: string;
}

/** The image-relative paths the runtime stage copies in (the Dockerfile rules keep them at their repository paths). */
export function runtimePaths(file: Dockerfile): string[] {
  const final = file.stages[file.stages.length - 1];
  if (final === undefined) return [];
  const paths: string[] = [];
  for (const instruction of final.instructions) {
    if (instruction.keyword !== 'COPY') continue;
    const words = instruction.json ? [...instruction.json] : instruction.args.split(/\s+/).filter((word) => word !== '');
    const destination = words.pop() ?? '';
    const intoDirectory = destination.endsWith('/') || words.length > 1;
    for (const source of words) {
      const target = intoDirectory ? posix.join(destination, posix.basename(source)) : destination;
      paths.push(posix.relative(IMAGE_ROOT, posix.resolve(IMAGE_ROOT, target)));
    }
  }
  return paths;
}

/**
 * Lays out what the runtime stage of `file` would hold, without Docker: the copied paths from the build
 * output, and for node_modules only the packages `npm ci --omit=dev` installs (links to the repository's
 * copies) plus the workspace links into the staged libs. A process started there with cwd = the returned
 * directory resolves its imports as in the image: a dev-only package or a lib left out fails to load.
 */
export function stageImageLayout(root: string, file: Dockerfile): string {
  const stage = mkdtempSync(join(tmpdir(), 'llm-stream-image-'));
  for (const path of runtimePaths(file)) {
    if (path === 'node_modules') {
      stageNodeModules(root, stage);
      continue;
    }
    mkdirSync(dirname(join(stage, path)), { recursive: true });
    cpSync(join(root, path), join(stage, path), { recursive: true, dereference: true });
  }
  return stage;
}

function stageNodeModules(root: string, stage: string): void {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  for (const [path, entry] of Object.entries(lock.packages)) {
    // Top-level packages only (nested ones come with their parent's directory).
    if (!/^node_modules\/(@[^/]+\/)?[^/]+$/.test(path) || entry.dev === true) continue;
    const target = join(stage, path);
    mkdirSync(dirname(target), { recursive: true });
    if (entry.link === true && entry.resolved !== undefined) symlinkSync(relative(dirname(target), join(stage, entry.resolved)), target);
    else symlinkSync(join(root, path), target);
  }
}
