import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** One recorded provider stream of conformance/transcripts. */
export interface TranscriptFile {
  /** Directory name: one protocol of `PROVIDERS` (`openai-chat`, `openai-responses`, `anthropic`, `gemini`, `gemini-interactions`). */
  readonly provider: string;
  /** Case name without extension, e.g. `tool_fragmented_json`. */
  readonly name: string;
  /** The raw response body bytes. */
  readonly ssePath: string;
  /** The expected outcome beside it. */
  readonly expectPath: string;
}

/** The repository root or the transcript corpus could not be found where expected. */
export class RepoLayoutError extends Error {
  readonly code = 'REPO_LAYOUT';
  override readonly name = 'RepoLayoutError';
}

/**
 * Absolute path of the repository root: the nearest directory holding nx.json, walking up from `from` (default
 * the working directory, which jest and nx set inside the repository).
 */
export function repoRoot(from: string = process.cwd()): string {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'nx.json'))) {
      return dir;
    }
    if (dirname(dir) === dir) {
      throw new RepoLayoutError(`no nx.json in ${resolve(from)} or any parent directory`);
    }
  }
}

/** `<repo root>/conformance/transcripts` */
export function transcriptsDir(root: string = repoRoot()): string {
  return join(root, 'conformance', 'transcripts');
}

function sortedEntries(dir: string, wantDirectories: boolean): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() === wantDirectories)
    .map((entry) => entry.name)
    .sort();
}

/**
 * Every `<provider>/<case>.sse` transcript with its `.expect.json`, sorted by provider then name. A transcript
 * without its expectation throws: a corpus file that no test checks is a mistake to surface, not skip.
 */
export function listTranscripts(dir: string = transcriptsDir()): TranscriptFile[] {
  return sortedEntries(dir, true).flatMap((provider) =>
    sortedEntries(join(dir, provider), false)
      .filter((file) => file.endsWith('.sse'))
      .map((file) => {
        const name = file.slice(0, -'.sse'.length);
        const expectPath = join(dir, provider, `${name}.expect.json`);
        if (!existsSync(expectPath)) {
          throw new RepoLayoutError(`${provider}/${file} has no ${name}.expect.json beside it`);
        }
        return { provider, name, ssePath: join(dir, provider, file), expectPath };
      }),
  );
}
