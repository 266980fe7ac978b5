import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { listTranscripts, repoRoot, RepoLayoutError, transcriptsDir } from './repo-paths.js';

describe('repository paths', () => {
  it('finds the repository root from the working directory or any directory inside it', () => {
    const root = resolve(__dirname, '../../..');

    expect(repoRoot()).toBe(root);
    expect(repoRoot(__dirname)).toBe(root);
    expect(existsSync(join(root, 'nx.json'))).toBe(true);
    expect(transcriptsDir()).toBe(join(root, 'conformance', 'transcripts'));
  });

  it('fails with a coded error outside a repository', () => {
    expect(() => repoRoot('/')).toThrow(RepoLayoutError);
  });

  it('lists every recorded transcript with its expectation', () => {
    const transcripts = listTranscripts();
    const providers = [...new Set(transcripts.map((transcript) => transcript.provider))];

    expect(providers).toEqual(['anthropic', 'gemini', 'gemini-interactions', 'openai-chat', 'openai-responses']);
    for (const provider of providers) {
      expect(transcripts.filter((transcript) => transcript.provider === provider).map((transcript) => transcript.name)).toEqual(
        expect.arrayContaining(['simple_text', 'multi_block', 'tool_fragmented_json', 'parallel_tools', 'error_mid_stream', 'interrupted', 'reasoning', 'refusal']),
      );
    }
    expect(transcripts.find((transcript) => transcript.provider === 'anthropic' && transcript.name === 'error_mid_stream')).toEqual({
      provider: 'anthropic',
      name: 'error_mid_stream',
      ssePath: join(transcriptsDir(), 'anthropic', 'error_mid_stream.sse'),
      expectPath: join(transcriptsDir(), 'anthropic', 'error_mid_stream.expect.json'),
    });
    expect(transcripts.every((transcript) => existsSync(transcript.ssePath) && existsSync(transcript.expectPath))).toBe(true);
  });

  it('refuses a transcript without its expectation', () => {
    const dir = mkdtempSync(join(tmpdir(), 'transcripts-spec-'));
    try {
      mkdirSync(join(dir, 'gemini'));
      writeFileSync(join(dir, 'gemini', 'orphan.sse'), 'data: {}\r\n\r\n');

      expect(() => listTranscripts(dir)).toThrow(/gemini\/orphan.sse has no orphan.expect.json/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
