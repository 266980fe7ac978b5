import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A new private directory under the OS temp dir, named `llm-stream-<purpose>-XXXXXX` to be recognizable. */
export function makeTempDir(purpose: string): string {
  return mkdtempSync(join(tmpdir(), `llm-stream-${purpose}-`));
}
