import { statSync } from 'node:fs';

/**
 * What changes when a file is rewritten or replaced: device, inode, size and times of the file a path leads
 * to. `stat` follows symlinks, so a Kubernetes Secret volume's update (a new `..data` directory swapped in by
 * renaming a symlink) shows as a new inode even when size and mtime happen to match. Undefined: unreadable.
 */
export function fileFingerprint(path: string): string | undefined {
  try {
    const stat = statSync(path);
    return `${String(stat.dev)}:${String(stat.ino)}:${String(stat.size)}:${String(stat.mtimeMs)}:${String(stat.ctimeMs)}`;
  } catch {
    return undefined;
  }
}
