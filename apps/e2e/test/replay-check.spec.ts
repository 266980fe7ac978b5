import { AnthropicAdapter, createProviderAdapter, replayStoredStream, type ProviderAdapter } from '@llm-stream/adapters';
import { isProviderName, type ContractEvent, type MachineInput, type ProviderName } from '@llm-stream/contract';
import { API_KEYS } from './support/api-keys.js';
import { AUDIT_KEYS, AUDIT_STORES, runCli, startAuditLog, type RunningAuditLog } from './support/audit-log.js';
import { postStream } from './support/gateway-client.js';
import { startPipeline, type Pipeline } from './support/pipeline.js';
import { providerRequestBody } from './support/provider-requests.js';
import { readRawTrace } from './support/raw-trace.js';
import { conformanceTranscripts } from './support/transcripts.js';

interface Recorded {
  readonly provider: ProviderName;
  readonly name: string;
  readonly streamId: string;
  readonly status: string;
}

const transcripts = conformanceTranscripts().map((transcript) => {
  if (!isProviderName(transcript.provider)) throw new Error(`unknown provider folder ${transcript.provider}`);
  return { ...transcript, provider: transcript.provider };
});

/**
 * An Anthropic adapter of a "next version" with one deliberate change: `pause_turn` now ends the turn
 * (`end_turn`) instead of `other`. Only the pause_turn transcript carries that stop reason.
 */
function pauseTurnEndsTheTurn(provider: ProviderName): ProviderAdapter {
  if (provider !== 'anthropic') return createProviderAdapter(provider);
  const inner = new AnthropicAdapter();
  const remap = (inputs: readonly MachineInput[]): MachineInput[] =>
    inputs.map((input) => (input.type === 'finish' && input.provider_stop_reason === 'pause_turn' ? { ...input, stop_reason: 'end_turn' } : input));
  return { provider, response: (record) => remap(inner.response(record)), frame: (frame) => remap(inner.frame(frame)), end: (record) => remap(inner.end(record)) };
}

/**
 * `llm-stream replay` against a store filled by the real pipeline (replay provider, gateway, normalizer, audit
 * log, on SQLite and on PostgreSQL) with the whole conformance corpus: this build's adapters change no outcome; a deliberately
 * changed adapter, given to the same replay function, changes exactly the one stream it should.
 */
describe.each(AUDIT_STORES.map((store) => [store] as const))('llm-stream replay on %s: recorded traffic through this build\'s adapters', (store) => {
  let pipeline: Pipeline;
  let audit: RunningAuditLog;
  const recorded: Recorded[] = [];
  const replay = (args: readonly string[], key: string = AUDIT_KEYS.full) => runCli(['replay', '--audit', audit.url, '--key', key, ...args]);

  beforeAll(async () => {
    pipeline = await startPipeline();
    audit = await startAuditLog(pipeline, store);
    const queue = [...transcripts];
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
          const reply = await postStream(pipeline.gatewayUrl, next.provider, providerRequestBody(next.provider, next.name));
          if (reply.status !== 200 || reply.streamId === undefined) throw new Error(`${next.provider}/${next.name}: gateway answered ${String(reply.status)}`);
          const terminal = reply.events.at(-1);
          const status = terminal?.type === 'stream.done' || terminal?.type === 'stream.error' ? terminal.status : 'open';
          recorded.push({ provider: next.provider, name: next.name, streamId: reply.streamId, status });
        }
      }),
    );
    for (const stream of recorded) await audit.waitForStored(stream.streamId);
  }, 600_000);

  afterAll(async () => {
    await audit.stop();
    await pipeline.stop();
  });

  it('finds no changed outcome with this build: exit 0, totals per provider', async () => {
    const result = await replay([]);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    const lines = result.stdout.trim().split('\n');
    const per = (provider: ProviderName): number => recorded.filter((stream) => stream.provider === provider).length;
    expect(lines).toEqual([
      `anthropic: ${String(per('anthropic'))} streams replayed, 0 changed`,
      `gemini: ${String(per('gemini'))} streams replayed, 0 changed`,
      `gemini-interactions: ${String(per('gemini-interactions'))} streams replayed, 0 changed`,
      `openai-chat: ${String(per('openai-chat'))} streams replayed, 0 changed`,
      `openai-responses: ${String(per('openai-responses'))} streams replayed, 0 changed`,
      `total: ${String(recorded.length)} streams replayed, 0 changed`,
    ]);
  });

  it('replays what the filters select: --provider, --status, --from/--to', async () => {
    const gemini = await replay(['--provider', 'gemini']);
    expect(gemini.stdout.trim().split('\n')).toEqual([
      `gemini: ${String(recorded.filter((stream) => stream.provider === 'gemini').length)} streams replayed, 0 changed`,
      `total: ${String(recorded.filter((stream) => stream.provider === 'gemini').length)} streams replayed, 0 changed`,
    ]);
    const failed = await replay(['--status', 'failed']);
    expect(failed.stdout).toContain(`total: ${String(recorded.filter((stream) => stream.status === 'failed').length)} streams replayed, 0 changed`);
    const future = await replay(['--from', String(Date.now() + 3_600_000)]);
    expect({ code: future.code, stdout: future.stdout }).toEqual({ code: 0, stdout: 'total: 0 streams replayed, 0 changed\n' });
  });

  it('reports exactly the stream a changed adapter changes, with what changed', async () => {
    const changed: { name: string; changes: unknown }[] = [];
    for (const stream of recorded) {
      const response = await fetch(`${audit.url}/v1/streams/${stream.streamId}`, { headers: { authorization: `Bearer ${AUDIT_KEYS.full}` } });
      const { events } = (await response.json()) as { events: ContractEvent[] };
      // The raw trace the audit log stored, as LLM_RAW holds it.
      const records = await readRawTrace(pipeline.nc, pipeline.jsm, 'acme', stream.streamId);
      expect({ stream: stream.name, changes: replayStoredStream({ records, events }) }).toEqual({ stream: stream.name, changes: [] });
      const changes = replayStoredStream({ records, events }, { createAdapter: pauseTurnEndsTheTurn });
      if (changes.length > 0) changed.push({ name: `${stream.provider}/${stream.name}`, changes });
    }
    expect(changed).toEqual([{ name: 'anthropic/pause_turn', changes: [{ field: 'stop_reason', stored: 'other', replayed: 'end_turn' }] }]);
  });

  describe('refusals: one line and a typed exit code', () => {
    it.each([
      ['no --audit', ['replay', '--key', 'k'], /missing --audit/],
      ['no --key', ['replay', '--audit', 'http://127.0.0.1:1'], /missing --key/],
      ['a positional argument', ['replay', 'st_x', '--audit', 'http://127.0.0.1:1', '--key', 'k'], /unexpected argument "st_x"/],
      ['--status running', ['replay', '--audit', 'http://127.0.0.1:1', '--key', 'k', '--status', 'running'], /no outcome to compare/],
    ])('%s: exit 2', async (_what, argv, message) => {
      const result = await runCli(argv);
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 2, stderr: expect.stringMatching(message) as string });
    });

    it('a filter the audit API rejects: exit 2 with its message', async () => {
      const result = await replay(['--provider', 'no-such-protocol']);
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 2, stderr: expect.stringMatching(/\(400: provider must be one of/) as string });
    });

    it('a key without an audit scope: 403, exit 2', async () => {
      const result = await replay([], AUDIT_KEYS.streamsOnly);
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 2, stderr: expect.stringMatching(/\(403.*audit:full/) as string });
    });

    it('an audit:read key, which would see placeholders for withheld reasoning: 403, exit 2 instead of false changes', async () => {
      const result = await replay(['--provider', 'anthropic'], API_KEYS.acme);
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 2, stderr: expect.stringMatching(/\(403.*audit:full/) as string });
    });
  });

  // Last: it alters the store the tests above read.
  it('names a stream whose stored outcome this build does not reach, and exits 1', async () => {
    const target = recorded.find((stream) => stream.provider === 'anthropic' && stream.name === 'simple_text')!;
    await audit.alterStoredEvent(target.streamId, 'stream.done', (done) => ({ ...done, stop_reason: 'max_tokens' }));
    const result = await replay(['--provider', 'anthropic']);
    const anthropic = recorded.filter((stream) => stream.provider === 'anthropic').length;
    expect({ code: result.code, lines: result.stdout.trim().split('\n') }).toEqual({
      code: 1,
      lines: [
        `${target.streamId} anthropic simple_text: stop_reason "max_tokens" → "end_turn"`,
        `anthropic: ${String(anthropic)} streams replayed, 1 changed`,
        `total: ${String(anthropic)} streams replayed, 1 changed`,
      ],
    });
  });
});
