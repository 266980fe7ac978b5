import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { storedMessageCount } from '@llm-stream/client';
import { STREAM_NAMES, eventsSubject, rawSubject, type ContractEvent, type ProviderName } from '@llm-stream/contract';
import { listTranscripts, repoRoot, runCommandOrThrow, waitFor, type CollectedSpan, type TranscriptFile } from '@llm-stream/testing';
import { getJson } from './support/http.js';
import { mapConcurrently, startPipeline, streamThroughGateway, type ClientStream, type Pipeline } from './support/pipeline.js';
import { startAudit, type Service } from './support/services.js';
import { ACME } from './support/tenants.js';

interface Detail {
  stream: { status: string; event_count: number; raw_count: number; trace_id: string | null };
  events: ContractEvent[];
  result: unknown;
}

interface RawTrace {
  records: { kind: string; raw_seq: number; text?: string; record?: { reason?: string }; events: ContractEvent[] }[];
  replay: { events: number; matches_stored: boolean };
}

const CLI = join(repoRoot(), 'apps/cli/dist/main.js');

/** Receive times differ between two runs of the same bytes; everything else must not. */
function withoutTimes(events: readonly ContractEvent[]): unknown[] {
  return events.map(({ ts: _ts, ...rest }) => rest);
}

describe('the audit log behind the real pipeline (replay provider, gateway, normalizer), on SQLite', () => {
  let pipeline: Pipeline;
  let audit: Service;
  const recorded: { file: TranscriptFile; stream: ClientStream }[] = [];

  const stored = async ({ stream }: { stream: ClientStream }): Promise<boolean> => {
    const { status, body } = await getJson<Detail>(`${audit.url}/v1/streams/${stream.streamId}`, ACME.key);
    if (status !== 200 || body.stream.status === 'running') return false;
    const { jsm } = pipeline.jetstream;
    return (
      body.stream.event_count === (await storedMessageCount(jsm, STREAM_NAMES.events, eventsSubject(ACME.tenant, stream.streamId))) &&
      body.stream.raw_count === (await storedMessageCount(jsm, STREAM_NAMES.raw, rawSubject(ACME.tenant, stream.streamId)))
    );
  };

  beforeAll(async () => {
    pipeline = await startPipeline();
    audit = await startAudit({ ...pipeline.commonEnv, AUDIT_SQLITE_PATH: join(pipeline.dir, 'audit.sqlite') });
    const files = listTranscripts();
    const streams = await mapConcurrently(files, 8, (file) => streamThroughGateway(pipeline.gateway.url, ACME.key, file.provider as ProviderName, file.name));
    files.forEach((file, index) => recorded.push({ file, stream: streams[index] as ClientStream }));
    await waitFor(async () => (await Promise.all(recorded.map(stored))).every(Boolean), { timeoutMs: 60_000, intervalMs: 250, description: 'every transcript stream to be stored' });
  });

  afterAll(async () => {
    await audit.stop();
    await pipeline.stop();
  });

  it('stores every transcript, and returns the events and the assembled result the CLI computes from the same bytes', async () => {
    expect(recorded.length).toBe(listTranscripts().length);
    await mapConcurrently(recorded, 2, async ({ file, stream }) => {
      const { body } = await getJson<Detail>(`${audit.url}/v1/streams/${stream.streamId}`, ACME.key);
      const options = ['--provider', file.provider, '--stream-id', stream.streamId, '--tenant', ACME.tenant, '--model', file.name, file.ssePath];
      const normalized = await runCommandOrThrow(process.execPath, [CLI, 'normalize', ...options]);
      const cliEvents = normalized.stdout.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as ContractEvent);
      expect({ transcript: `${file.provider}/${file.name}`, events: withoutTimes(body.events) }).toEqual({
        transcript: `${file.provider}/${file.name}`,
        events: withoutTimes(cliEvents),
      });
      const assembled = await runCommandOrThrow(process.execPath, [CLI, 'assemble', ...options]);
      expect(body.result).toEqual(JSON.parse(assembled.stdout));
    });
  });

  it('keeps each raw record with the events it produced, and the stored trace replays to the stored events', async () => {
    for (const { file, stream } of recorded) {
      const { body } = await getJson<RawTrace>(`${audit.url}/v1/streams/${stream.streamId}/raw`, ACME.key);
      const detail = (await getJson<Detail>(`${audit.url}/v1/streams/${stream.streamId}`, ACME.key)).body;
      expect({ transcript: `${file.provider}/${file.name}`, replay: body.replay }).toEqual({
        transcript: `${file.provider}/${file.name}`,
        replay: { events: detail.events.length, matches_stored: true, first_difference_seq: null },
      });
      expect(body.records.map((record) => record.raw_seq)).toEqual(body.records.map((_, index) => index + 1));
      expect(body.records.flatMap((record) => record.events)).toEqual(detail.events);
      // The frames are the provider's bytes exactly: the transcript, or its beginning when the gateway stopped
      // reading once the stream had settled (an attempt that ended `aborted`).
      const frames = body.records.filter((record) => record.kind === 'frame' || record.kind === 'frame.partial').map((record) => record.text ?? '');
      const transcript = readFileSync(file.ssePath, 'utf8').replace(/^\uFEFF/, '');
      const ending = body.records.find((record) => record.kind === 'attempt.end')?.record?.reason;
      if (ending === 'eof') expect(frames.join('')).toBe(transcript);
      else expect(transcript.startsWith(frames.join(''))).toBe(true);
    }
  });

  it('verifies every stored stream: invariants and hash chain', async () => {
    for (const { stream } of recorded) {
      const { body } = await getJson<{ ok: boolean; chain: { ok: boolean; verified: number; events: number }; invariants: { violations: unknown[] } }>(
        `${audit.url}/v1/streams/${stream.streamId}/verify`,
        ACME.key,
      );
      expect(body).toMatchObject({ ok: true, chain: { ok: true, verified: body.chain.events }, invariants: { violations: [] } });
      expect(body.chain.events).toBeGreaterThan(1);
    }
  });

  it('goes from a stream_id to its trace and back, and continues that trace', async () => {
    const spansOf = (service: string): readonly CollectedSpan[] => pipeline.collector.spans().filter((span) => span.service === service);
    await waitFor(() => spansOf('audit-log').length >= recorded.length, { description: 'the audit spans to be exported' });
    const gatewaySpans = spansOf('gateway');
    const ours = spansOf('audit-log');
    for (const { stream } of recorded) {
      const { body } = await getJson<Detail>(`${audit.url}/v1/streams/${stream.streamId}`, ACME.key);
      const root = gatewaySpans.find((span) => span.name === 'llm.stream' && span.attributes['llm.stream_id'] === stream.streamId);
      expect(body.stream.trace_id).toBe(root?.traceId);
      const listed = await getJson<{ streams: { stream_id: string }[] }>(`${audit.url}/v1/streams?trace_id=${body.stream.trace_id ?? ''}`, ACME.key);
      expect(listed.body.streams.map((row) => row.stream_id)).toEqual([stream.streamId]);
      const auditSpan = ours.find((span) => span.attributes['llm.stream_id'] === stream.streamId);
      expect(auditSpan).toMatchObject({ name: 'llm.audit.store', traceId: root?.traceId });
    }
  });
});
