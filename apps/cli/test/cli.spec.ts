import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { normalizeTranscript } from '@llm-stream/adapters';
import { isProviderName, parseEventLine, type ContractEvent } from '@llm-stream/contract';
import { listTranscripts, repoRoot } from '@llm-stream/testing';

const root = repoRoot(__dirname);
const cli = join(root, 'apps/cli/dist/main.js');
const scratch = mkdtempSync(join(tmpdir(), 'llm-stream-cli-'));

function run(args: readonly string[], input?: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [cli, ...args], { cwd: root, encoding: 'utf8', input });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function eventsOf(stdout: string): ContractEvent[] {
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const parsed = parseEventLine(line);
      if (!parsed.ok) throw new Error(parsed.error.message);
      return parsed.value;
    });
}

const withoutTs = (events: readonly ContractEvent[]): unknown[] => events.map(({ ts: _ts, ...rest }) => rest);

/** The eight recorded cases of each provider: the in-process suites cover the rest of the kit. */
const RECORDED = new Set(['simple_text', 'multi_block', 'tool_fragmented_json', 'parallel_tools', 'error_mid_stream', 'interrupted', 'reasoning', 'refusal']);
const recorded = listTranscripts().filter((transcript) => RECORDED.has(transcript.name));

describe('llm-stream normalize', () => {
  const transcripts = recorded.filter((transcript) => transcript.name === 'multi_block' || transcript.name === 'interrupted');

  it.each(transcripts.map((t) => [`${t.provider}/${t.name}`, t] as const))('%s: prints valid NDJSON, the in-process events', (_name, transcript) => {
    const { status, stdout, stderr } = run(['normalize', '--provider', transcript.provider, transcript.ssePath]);
    expect({ status, stderr }).toEqual({ status: 0, stderr: '' });
    if (!isProviderName(transcript.provider)) throw new Error(`unknown provider folder ${transcript.provider}`);
    const expected = normalizeTranscript(transcript.provider, readFileSync(transcript.ssePath)).events;
    expect(withoutTs(eventsOf(stdout))).toEqual(withoutTs(expected));
  });

  it.each(recorded.map((t) => [`${t.provider}/${t.name}`, t] as const))('%s: with --deterministic prints exactly the kit’s .events.json', (_name, transcript) => {
    const { status, stdout } = run(['normalize', '--deterministic', '--provider', transcript.provider, transcript.ssePath]);
    expect(status).toBe(0);
    const golden = JSON.parse(readFileSync(transcript.ssePath.replace(/\.sse$/, '.events.json'), 'utf8')) as unknown[];
    expect(stdout).toBe(golden.map((event) => `${JSON.stringify(event)}\n`).join(''));
  });

  it('refuses a body of another protocol than --provider names (exit 2), instead of an interrupted stream', () => {
    const { status, stdout, stderr } = run(['normalize', '--provider', 'anthropic', join(root, 'conformance/transcripts/gemini/reasoning.sse')]);
    expect({ status, stdout, stderr }).toEqual({
      status: 2,
      stdout: '',
      stderr: 'llm-stream: nothing in the input is an event of the anthropic protocol (every record had an unknown event type): is --provider right?\n',
    });
  });

  it('reads standard input for -, and takes stream id, tenant and model', () => {
    const body = readFileSync(join(root, 'conformance/transcripts/gemini/simple_text.sse'), 'utf8');
    const { status, stdout } = run(['normalize', '--provider', 'gemini', '--stream-id', 'st_cli', '--tenant', 'acme', '--model', 'gemini-x', '-'], body);
    expect(status).toBe(0);
    const [start] = eventsOf(stdout);
    expect(start).toMatchObject({ type: 'stream.start', stream_id: 'st_cli', tenant: 'acme', model: 'gemini-x', provider: 'gemini' });
  });

  it('replays a contract NDJSON file with --provider contract', () => {
    const source = run(['normalize', '--provider', 'anthropic', join(root, 'conformance/transcripts/anthropic/multi_block.sse')]);
    const file = join(scratch, 'events.ndjson');
    writeFileSync(file, source.stdout);
    const replay = run(['normalize', '--provider', 'contract', file]);
    expect(replay.status).toBe(0);
    expect(eventsOf(replay.stdout)).toEqual(eventsOf(source.stdout));
  });

  it('ends an oversized frame with a protocol_error', () => {
    const { status, stdout } = run(['normalize', '--provider', 'openai-chat', '--max-frame-bytes', '64', join(root, 'conformance/transcripts/openai-chat/simple_text.sse')]);
    expect(status).toBe(0);
    expect(eventsOf(stdout).at(-1)).toMatchObject({ type: 'stream.error', status: 'failed', error: { category: 'protocol_error' } });
  });
});

describe('llm-stream assemble', () => {
  it.each(recorded.map((t) => [`${t.provider}/${t.name}`, t] as const))('%s: reaches the expected terminal state', (_name, transcript) => {
    const { status, stdout } = run(['assemble', '--provider', transcript.provider, transcript.ssePath]);
    expect(status).toBe(0);
    const result = JSON.parse(stdout) as { status: string; blocks: unknown[]; stop_reason: unknown; error: unknown };
    const expected = JSON.parse(readFileSync(transcript.expectPath, 'utf8')) as { terminal: string; stop_reason_normalized?: unknown; error_category?: unknown };
    expect(result.status).toBe(expected.terminal);
    if (expected.stop_reason_normalized !== undefined) expect(result.stop_reason).toBe(expected.stop_reason_normalized);
    if (expected.error_category !== undefined) expect((result.error as { category?: unknown } | null)?.category ?? null).toBe(expected.error_category);
  });
});

describe('llm-stream verify', () => {
  const events = run(['normalize', '--provider', 'anthropic', join(root, 'conformance/transcripts/anthropic/simple_text.sse')]).stdout.split('\n').filter(Boolean);
  const write = (name: string, lines: readonly string[]): string => {
    const file = join(scratch, name);
    writeFileSync(file, `${lines.join('\n')}\n`);
    return file;
  };

  it('exits 0 for a whole, valid stream', () => {
    const { status, stdout } = run(['verify', write('valid.ndjson', events)]);
    expect(status).toBe(0);
    expect(stdout).toMatch(/^ok: \d+ events/);
  });

  it('exits 1 for a stream without its terminal event, and 0 with --partial', () => {
    const file = write('partial.ndjson', events.slice(0, 4));
    expect(run(['verify', file])).toMatchObject({ status: 1, stdout: expect.stringContaining('missing-terminal') as unknown });
    expect(run(['verify', '--partial', file]).status).toBe(0);
  });

  it('prints every broken rule: a duplicated delta', () => {
    const broken = [...events.slice(0, 3), events[2] ?? '', ...events.slice(3)];
    const { status, stdout } = run(['verify', write('broken.ndjson', broken)]);
    expect(status).toBe(1);
    expect(stdout).toContain('seq-strictly-increasing');
  });

  it('refuses a file that is not NDJSON with one line and exit 2, naming the first line that is not JSON', () => {
    const file = write('not-ndjson.txt', [...events.slice(0, 2), '{not json', 'plain text']);
    expect(run(['verify', file])).toEqual({ status: 2, stdout: '', stderr: `llm-stream: ${file} is not NDJSON: line 3 is not valid JSON (2 of 4 lines are not)\n` });
  });
});

describe('bad usage', () => {
  it.each([
    [['normalize', '--provider', 'cohere', 'x.sse'], /unknown provider "cohere"/],
    [['normalize', 'x.sse'], /missing --provider/],
    [['normalize', '--provider', 'anthropic'], /missing <file>/],
    [['normalize', '--provider', 'anthropic', '/nonexistent/file.sse'], /cannot read \/nonexistent\/file.sse: ENOENT/],
    [['assemble', '--provider', 'anthropic', '--bogus', 'x'], /Unknown option '--bogus'/],
    [['normalize', '--provider', 'anthropic', '--max-frame-bytes', '0', 'x'], /--max-frame-bytes must be a positive integer/],
    [['frobnicate'], /unknown command "frobnicate"/],
    [['normalize', '--provider', 'anthropic', '--stream-id', 'a.b', 'x'], /--stream-id must be/],
    [['export', 'st_x', '--key', 'k'], /missing --audit <url>/],
    [['export', 'st_x', '--audit', 'ftp://audit', '--key', 'k'], /--audit must be an http\(s\) URL/],
    [['replay', '--audit', 'http://127.0.0.1:1'], /missing --key <key>/],
    [['replay', '--audit', 'http://127.0.0.1:1', '--key', 'k', '--status', 'running'], /a running stream has no outcome/],
  ])('%j exits 2 with one line, no stack trace', (args, message) => {
    const { status, stdout, stderr } = run(args);
    expect(status).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(message);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('rejects a contract file line that is not an event, naming the line', () => {
    const file = join(scratch, 'junk.ndjson');
    writeFileSync(file, '{"type":"stream.start"}\n');
    const { status, stderr } = run(['assemble', '--provider', 'contract', file]);
    expect(status).toBe(2);
    expect(stderr).toMatch(/^llm-stream: line 1: /);
  });
});

describe('llm-stream hash-key', () => {
  it('prints the SHA-256 hex digest of the key, as GATEWAY_API_KEYS stores it', () => {
    const { status, stdout } = run(['hash-key', 'demo-key']);
    expect(status).toBe(0);
    expect(stdout).toBe(`${createHash('sha256').update('demo-key').digest('hex')}\n`);
  });
});
