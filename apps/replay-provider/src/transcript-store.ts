import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ProviderName } from '@llm-stream/contract';

/** Case names are file names without `.sse`: no separators or `..`, so a model name cannot escape the folder. */
const CASE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

export function isValidCaseName(name: string): boolean {
  return CASE_NAME.test(name) && !name.includes('..');
}

/**
 * Recorded transcripts at `<dir>/<provider>/<case>.sse`, read on each request (they are a few KB and the OS
 * caches them) so a transcript added while the server runs is served without a restart.
 */
export class TranscriptStore {
  constructor(private readonly dir: string) {}

  /** The exact bytes of the transcript, or null when there is no such case. */
  async read(provider: ProviderName, caseName: string): Promise<Buffer | null> {
    if (!isValidCaseName(caseName)) return null;
    try {
      return await readFile(this.pathOf(provider, caseName));
    } catch (error: unknown) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  exists(provider: ProviderName, caseName: string): boolean {
    return isValidCaseName(caseName) && existsSync(this.pathOf(provider, caseName));
  }

  private pathOf(provider: ProviderName, caseName: string): string {
    return join(this.dir, provider, `${caseName}.sse`);
  }
}

function isNotFound(error: unknown): boolean {
  return error instanceof Error && 'code' in error && (error.code === 'ENOENT' || error.code === 'EISDIR');
}
