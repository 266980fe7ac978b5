import { readFile } from 'node:fs/promises';
import { UsageError } from './usage-error.js';

/** Reads a whole input file (`-` is standard input) as bytes. */
export async function readInput(path: string): Promise<Uint8Array> {
  if (path === '-') return readStdin();
  try {
    return await readFile(path);
  } catch (error) {
    const reason = error instanceof Error && 'code' in error ? String(error.code) : 'unreadable';
    throw new UsageError(`cannot read ${path}: ${reason}`, { cause: error });
  }
}

async function readStdin(): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks);
}
