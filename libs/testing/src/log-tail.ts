import { readFileSync } from 'node:fs';

/** The last `lineCount` lines of a log file, or a note that it cannot be read (it may be gone already). */
export function logTail(path: string, lineCount = 50): string {
  try {
    const lines = readFileSync(path, 'utf8').split('\n');
    if (lines.at(-1) === '') {
      lines.pop();
    }
    return lines.slice(-lineCount).join('\n');
  } catch (error: unknown) {
    return `(cannot read ${path}: ${error instanceof Error ? error.message : String(error)})`;
  }
}
