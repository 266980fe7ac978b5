import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROVIDERS, isProviderName, type ProviderName } from '@llm-stream/contract';
import { repoRoot, runCommand } from '@llm-stream/testing';
import { API_KEYS } from './support/api-keys.js';
import { AUDIT_KEYS, AUDIT_STORES, runCli, startAuditLog, type RunningAuditLog } from './support/audit-log.js';
import { postStream } from './support/gateway-client.js';
import { registerScenario } from './support/replay-control.js';
import { startPipeline, type Pipeline } from './support/pipeline.js';
import { providerRequestBody } from './support/provider-requests.js';
import { conformanceTranscripts } from './support/transcripts.js';

interface Exported {
  readonly provider: ProviderName;
  readonly name: string;
  readonly streamId: string;
  readonly original: Buffer;
  /** How the stream's final attempt ended in its stored trace (`eof`: the whole body was read). */
  readonly ending: string | undefined;
}

const transcripts = conformanceTranscripts().map((transcript) => {
  if (!isProviderName(transcript.provider)) throw new Error(`unknown provider folder ${transcript.provider}`);
  return { ...transcript, provider: transcript.provider };
});

/** Runs `work` over `items`, `lanes` at a time. */
async function inLanes<T>(items: readonly T[], lanes: number, work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) await work(next);
    }),
  );
}

/**
 * `llm-stream export` against a store filled by the real pipeline (replay provider, gateway, normalizer, audit
 * log, on SQLite and on PostgreSQL): every conformance transcript goes through the gateway, is exported from the audit API, and
 * comes back as the same bytes; the exported corpus then passes the conformance kit's own spec.
 */
describe.each(AUDIT_STORES.map((store) => [store] as const))('llm-stream export on %s: a stored stream as a conformance fixture', (store) => {
  let pipeline: Pipeline;
  let audit: RunningAuditLog;
  let out: string;
  const exported: Exported[] = [];

  beforeAll(async () => {
    pipeline = await startPipeline();
    audit = await startAuditLog(pipeline, store);
    out = mkdtempSync(join(tmpdir(), 'llm-stream-e2e-export-'));
    await inLanes(transcripts, 4, async (transcript) => {
      const reply = await postStream(pipeline.gatewayUrl, transcript.provider, providerRequestBody(transcript.provider, transcript.name));
      const streamId = reply.streamId;
      if (reply.status !== 200 || streamId === undefined) throw new Error(`${transcript.provider}/${transcript.name}: gateway answered ${String(reply.status)}`);
      await audit.waitForStored(streamId);
      const result = await runCli(['export', streamId, '--audit', audit.url, '--key', AUDIT_KEYS.full, '--out', out, '--name', transcript.name]);
      if (result.code !== 0) throw new Error(`export of ${transcript.provider}/${transcript.name} failed (${String(result.code)}): ${result.stderr}`);
      const raw = (await (await fetch(`${audit.url}/v1/streams/${streamId}/raw`, { headers: { authorization: `Bearer ${AUDIT_KEYS.full}` } })).json()) as {
        records: { kind: string; record?: { reason?: string } }[];
      };
      const ending = raw.records.filter((record) => record.kind === 'attempt.end').at(-1)?.record?.reason;
      exported.push({ provider: transcript.provider, name: transcript.name, streamId, original: transcript.bytes, ending });
    });
  }, 600_000);

  afterAll(async () => {
    await audit.stop();
    await pipeline.stop();
    rmSync(out, { recursive: true, force: true });
  });

  const fileOf = (entry: Exported, suffix: string): string => join(out, entry.provider, `${entry.name}${suffix}`);
  const bom = Buffer.from([0xef, 0xbb, 0xbf]);
  const withoutBom = (bytes: Buffer): Buffer => (bytes.subarray(0, 3).equals(bom) ? bytes.subarray(3) : bytes);

  it('gives back the bytes the provider sent: the whole transcript, or its beginning where the gateway stopped reading', () => {
    expect(exported).toHaveLength(transcripts.length);
    const cut: string[] = [];
    for (const entry of exported) {
      const sse = readFileSync(fileOf(entry, '.sse'));
      // The SSE decoder drops a leading byte order mark before anything is recorded: the trace never held it.
      const sent = withoutBom(entry.original);
      const at = `${entry.provider}/${entry.name}`;
      // A stream that failed before the body's end: the gateway stopped reading (attempt.end `aborted`), so the
      // trace holds what it read, the body's beginning; every other stream is the whole body, byte for byte.
      if (entry.ending === 'aborted' && !sse.equals(sent)) {
        cut.push(at);
        expect({ at, prefix: sent.subarray(0, sse.length).equals(sse) }).toEqual({ at, prefix: true });
      } else expect({ at, bytes: sse.toString('base64') }).toEqual({ at, bytes: sent.toString('base64') });
    }
    expect(cut.length).toBeLessThan(transcripts.length / 5);
  });

  it("writes the kit's normalization of the exported body: the corpus's own event list where the bytes are the corpus's", () => {
    const same = exported.filter((entry) => readFileSync(fileOf(entry, '.sse')).equals(entry.original));
    expect(same.length).toBeGreaterThan(transcripts.length / 2);
    for (const entry of same) {
      // As JSON values: a hand-made golden file may order an event's members differently.
      const golden: unknown = JSON.parse(readFileSync(join(repoRoot(), 'conformance/transcripts', entry.provider, `${entry.name}.events.json`), 'utf8'));
      const at = `${entry.provider}/${entry.name}`;
      expect({ at, events: JSON.parse(readFileSync(fileOf(entry, '.events.json'), 'utf8')) as unknown }).toEqual({ at, events: golden });
    }
  });

  it("passes the conformance kit's spec: expected outcome, clean invariants, the golden event list, any re-chunking", async () => {
    const kit = await runCommand(
      process.execPath,
      [join(repoRoot(), 'node_modules/jest/bin/jest.js'), '-c', join(repoRoot(), 'libs/adapters/jest.config.cjs'), join(repoRoot(), 'libs/adapters/src/conformance.spec.ts')],
      { cwd: repoRoot(), env: { ...process.env, CONFORMANCE_TRANSCRIPTS_DIR: out, UPDATE_GOLDEN: '0', FORCE_COLOR: '0' }, timeoutMs: 300_000 },
    );
    expect({ code: kit.code, failures: kit.stderr.split('\n').filter((line) => line.includes('✕')) }).toEqual({ code: 0, failures: [] });
    // The kit read the exported corpus, every case of it: two tests per case and one per protocol.
    expect(kit.stderr).toMatch(new RegExp(`Tests:\\s+${String(transcripts.length * 2 + PROVIDERS.length)} passed`));
  }, 300_000);

  describe('a stream of several attempts', () => {
    /** A stream through the gateway whose upstream answers `responses` in turn; returns its id once stored. */
    const streamOf = async (responses: readonly unknown[]): Promise<string> => {
      const scenario = await registerScenario(pipeline.replay.url, { responses });
      const reply = await postStream(pipeline.gatewayUrl, 'anthropic', providerRequestBody('anthropic', `scenario:${scenario}`));
      if (reply.streamId === undefined) throw new Error(`gateway answered ${String(reply.status)}`);
      await audit.waitForStored(reply.streamId);
      return reply.streamId;
    };

    it('exports the frames of the final attempt only: an overloaded first attempt, then the answer', async () => {
      const streamId = await streamOf([{ transcript: 'overloaded_before_first_block' }, { transcript: 'simple_text' }]);
      const result = await runCli(['export', streamId, '--audit', audit.url, '--key', AUDIT_KEYS.full, '--out', out, '--name', 'retried_then_answered']);
      expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 0, stdout: expect.stringMatching(/attempt 2\), \d+ events, completed\n$/) as string });
      const simpleText = transcripts.find((transcript) => transcript.provider === 'anthropic' && transcript.name === 'simple_text')!;
      expect(readFileSync(join(out, 'anthropic', 'retried_then_answered.sse'))).toEqual(simpleText.bytes);
    });

    it('refuses a stream whose final attempt got no body (an error status after a retried attempt): exit 2', async () => {
      const badRequest = { status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: too large' } } };
      const streamId = await streamOf([{ transcript: 'overloaded_before_first_block' }, badRequest]);
      const result = await runCli(['export', streamId, '--audit', audit.url, '--key', AUDIT_KEYS.full, '--out', out, '--name', 'no_body']);
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 2, stderr: expect.stringMatching(/final attempt \(2\) .* has no stored frames/) as string });
      expect(existsSync(join(out, 'anthropic', 'no_body.sse'))).toBe(false);
    });
  });

  describe('refusals: one line and a typed exit code, no file written', () => {
    const someStream = (): Exported => exported.find((entry) => entry.provider === 'anthropic' && entry.name === 'simple_text')!;
    const args = (streamId: string, key: string, name = 'refused'): string[] => ['export', streamId, '--audit', audit.url, '--key', key, '--out', out, '--name', name];

    it.each([
      ['no --audit', ['export', 'st_x', '--key', 'k'], /missing --audit/],
      ['no --key', ['export', 'st_x', '--audit', 'http://127.0.0.1:1'], /missing --key/],
      ['no stream id', ['export', '--audit', 'http://127.0.0.1:1', '--key', 'k'], /missing <stream_id>/],
      ['an --audit that is no URL', ['export', 'st_x', '--audit', 'audit-log', '--key', 'k'], /--audit must be an http\(s\) URL/],
      ['a --name that is no file name', ['export', 'st_x', '--audit', 'http://127.0.0.1:1', '--key', 'k', '--name', '../up'], /--name must be/],
    ])('%s: exit 2', async (_what, argv, message) => {
      const result = await runCli(argv);
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 2, stderr: expect.stringMatching(message) as string });
    });

    it('an unknown key: 401, exit 2', async () => {
      const result = await runCli(args(someStream().streamId, 'no-such-key'));
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 2, stderr: expect.stringMatching(/refuses the key \(401/) as string });
    });

    it('a key without an audit scope: 403, exit 2', async () => {
      const result = await runCli(args(someStream().streamId, AUDIT_KEYS.streamsOnly));
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 2, stderr: expect.stringMatching(/lacks the scope .*\(403.*audit:full/) as string });
    });

    it('a stream the tenant does not have: 404, exit 2', async () => {
      const result = await runCli(args('st_E2ENOSUCHSTREAM000000000001', AUDIT_KEYS.full));
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 2, stderr: expect.stringMatching(/has no stream st_E2ENOSUCHSTREAM000000000001 .*\(404\)/) as string });
    });

    it('an audit:read key on a stream with withheld reasoning: exit 2, instead of exporting placeholders', async () => {
      const reasoning = exported.find((entry) => entry.provider === 'anthropic' && entry.name === 'reasoning')!;
      const result = await runCli(args(reasoning.streamId, API_KEYS.acme));
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 2, stderr: expect.stringMatching(/reasoning withheld.*audit:full/) as string });
    });

    it('a case that exists already: exit 2, the files stay as they were', async () => {
      const entry = someStream();
      const before = readFileSync(fileOf(entry, '.sse'));
      const result = await runCli(args(entry.streamId, AUDIT_KEYS.full, entry.name));
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 2, stderr: expect.stringMatching(/exists already/) as string });
      expect(readFileSync(fileOf(entry, '.sse'))).toEqual(before);
    });

    it('an audit API that does not answer: exit 3', async () => {
      const result = await runCli(['export', someStream().streamId, '--audit', 'http://127.0.0.1:9', '--key', AUDIT_KEYS.full, '--out', out, '--name', 'unreachable']);
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 3, stderr: expect.stringMatching(/does not answer/) as string });
    });

    it('wrote nothing for any refusal', () => {
      expect(['refused', 'unreachable'].some((name) => existsSync(join(out, 'anthropic', `${name}.sse`)))).toBe(false);
    });
  });
});
