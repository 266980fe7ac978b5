import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { storedMessageCount } from '@llm-stream/pipeline';
import { STREAM_NAMES, rawSubject, type ContractEvent, type ProviderName } from '@llm-stream/contract';
import { listTranscripts, repoRoot, runCommandOrThrow, waitFor, type CollectedSpan, type TranscriptFile } from '@llm-stream/testing';
import { getJson } from './support/http.js';
import { mapConcurrently, providerRequest, startPipeline, storedInFull, streamThroughGateway, type ClientStream, type Pipeline } from './support/pipeline.js';
import { startAudit, type Service } from './support/services.js';
import { ACME, GLOBEX } from './support/tenants.js';

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

  const stored = ({ stream }: { stream: ClientStream }): Promise<boolean> => storedInFull(pipeline, audit.url, ACME.key, ACME.tenant, stream.streamId);

  beforeAll(async () => {
    pipeline = await startPipeline();
    audit = await startAudit({ ...pipeline.auditEnv, AUDIT_SQLITE_PATH: join(pipeline.dir, 'audit.sqlite'), AUDIT_PROMPT_CAPTURE_TENANTS: GLOBEX.tenant });
    const files = listTranscripts();
    const streams = await mapConcurrently(files, 8, (file) => streamThroughGateway(pipeline.gateway.url, ACME.key, file.provider as ProviderName, file.name));
    files.forEach((file, index) => recorded.push({ file, stream: streams[index] as ClientStream }));
    await waitFor(async () => (await Promise.all(recorded.map(stored))).every(Boolean), { timeoutMs: 60_000, intervalMs: 250, description: 'every transcript stream to be stored' });
  });

  afterAll(async () => {
    await audit.stop();
    await pipeline.stop();
  });

  // Two CLI processes per transcript (280 starts): on the shared 2-core machine under load that alone passed the default 120 s.
  it('stores every transcript, and returns the events and the assembled result the CLI computes from the same bytes', async () => {
    expect(recorded.length).toBe(listTranscripts().length);
    await mapConcurrently(recorded, 2, async ({ file, stream }) => {
      const { body } = await getJson<Detail>(`${audit.url}/v1/streams/${stream.streamId}`, ACME.key);
      const options = ['--provider', file.provider, '--stream-id', stream.streamId, '--tenant', ACME.tenant, '--model', file.name, file.ssePath];
      const normalized = await runCommandOrThrow(process.execPath, [CLI, 'normalize', ...options]);
      // Posted to /v1/streams/<protocol>: its default route, named like the protocol, is in stream.start (the CLI
      // reads bytes and knows no route).
      const cliEvents = normalized.stdout
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as ContractEvent)
        .map((event) => (event.type === 'stream.start' ? { ...event, route: file.provider } : event));
      expect({ transcript: `${file.provider}/${file.name}`, events: withoutTimes(body.events) }).toEqual({
        transcript: `${file.provider}/${file.name}`,
        events: withoutTimes(cliEvents),
      });
      const assembled = await runCommandOrThrow(process.execPath, [CLI, 'assemble', ...options]);
      expect(body.result).toEqual(JSON.parse(assembled.stdout));
    });
    // Two CLI processes per transcript (140 of them), two at a time: minutes on a shared 2-core machine.
  }, 360_000);

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

  it('reads every raw trace a page at a time (after_js_seq, limit), and a detail after a seq, the same as whole', async () => {
    interface Page {
      records: RawTrace['records'];
      page: { after_js_seq: number; last_js_seq: number; more: boolean };
      replay?: unknown;
    }
    for (const { file, stream } of recorded) {
      const whole = (await getJson<RawTrace>(`${audit.url}/v1/streams/${stream.streamId}/raw`, ACME.key)).body;
      // Pages of 3, each continuing the replay where the previous one stopped, then one page of all from the start.
      const paged: RawTrace['records'] = [];
      for (let after = 0, more = true; more; ) {
        const { status, body } = await getJson<Page>(`${audit.url}/v1/streams/${stream.streamId}/raw?after_js_seq=${String(after)}&limit=3`, ACME.key);
        expect(status).toBe(200);
        expect(body).not.toHaveProperty('replay');
        expect(body.records.length).toBeLessThanOrEqual(3);
        paged.push(...body.records);
        ({ more } = body.page);
        after = body.page.last_js_seq;
      }
      const fromStart = (await getJson<Page>(`${audit.url}/v1/streams/${stream.streamId}/raw?after_js_seq=0`, ACME.key)).body;
      expect({ transcript: `${file.provider}/${file.name}`, paged, fromStart: fromStart.records }).toEqual({ transcript: `${file.provider}/${file.name}`, paged: whole.records, fromStart: whole.records });
      expect(fromStart.page.more).toBe(false);
      const detail = (await getJson<Detail>(`${audit.url}/v1/streams/${stream.streamId}`, ACME.key)).body;
      const after = Math.floor(detail.events.length / 2);
      const tail = (await getJson<Detail & { events_after_seq: number; event_times: { seq: number }[] }>(`${audit.url}/v1/streams/${stream.streamId}?after_seq=${String(after)}`, ACME.key)).body;
      expect(tail.events).toEqual(detail.events.filter((event) => event.seq > after));
      expect(tail.event_times.map((time) => time.seq)).toEqual(tail.events.map((event) => event.seq));
      expect({ ...tail, events: undefined, event_times: undefined }).toEqual({ ...detail, events: undefined, event_times: undefined, events_after_seq: after });
    }
  });

  it('refuses a malformed page or seq with a typed 400, and an unknown parameter', async () => {
    const { streamId } = recorded[0]?.stream ?? { streamId: '' };
    for (const query of ['raw?after_js_seq=-1', 'raw?after_js_seq=x', 'raw?limit=0', 'raw?limit=5001', 'raw?page=2', '?after_seq=1.5', '?since=3']) {
      const { status, body } = await getJson<{ error: { code: string; message: string } }>(`${audit.url}/v1/streams/${streamId}${query.startsWith('?') ? '' : '/'}${query}`, ACME.key);
      expect({ query, status, code: body.error.code }).toEqual({ query, status: 400, code: 'invalid_request' });
      expect(body.error.message).toMatch(/after_js_seq|limit|after_seq|unknown query parameter/);
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

  it("stores the client's request only for a key that captures prompts and a tenant the audit log keeps them for", async () => {
    const captured = await streamThroughGateway(pipeline.gateway.url, GLOBEX.key, 'anthropic', 'simple_text');
    const plain = await streamThroughGateway(pipeline.gateway.url, ACME.key, 'anthropic', 'simple_text');
    const detail = async (key: string, streamId: string): Promise<{ stream: { prompt_captured: boolean; raw_count: number }; prompt?: unknown }> => {
      const { body } = await getJson<{ stream: { prompt_captured: boolean; raw_count: number }; prompt?: unknown }>(`${audit.url}/v1/streams/${streamId}`, key);
      return body;
    };
    const globex = await waitFor(async () => {
      const body = await detail(GLOBEX.key, captured.streamId);
      return body.stream.prompt_captured ? body : undefined;
    }, { description: 'the captured prompt to be stored' });
    expect(globex.prompt).toEqual({ ...providerRequest('anthropic', 'simple_text') });
    const { jsm } = pipeline.jetstream;
    const rawInNats = await storedMessageCount(jsm, STREAM_NAMES.raw, rawSubject(ACME.tenant, plain.streamId));
    await waitFor(async () => (await detail(ACME.key, plain.streamId)).stream.raw_count === rawInNats, { description: 'the plain stream to be stored' });
    const acme = await detail(ACME.key, plain.streamId);
    expect(acme.stream.prompt_captured).toBe(false);
    expect(acme).not.toHaveProperty('prompt');
    // The gateway recorded no request for the key without capture: its raw trace goes from stream.open to attempt.start.
    const raw = await getJson<{ records: { kind: string; raw_seq: number }[] }>(`${audit.url}/v1/streams/${plain.streamId}/raw`, ACME.key);
    expect(raw.body.records.slice(0, 2).map(({ kind, raw_seq }) => [raw_seq, kind])).toEqual([
      [1, 'stream.open'],
      [2, 'attempt.start'],
    ]);
    // With capture, the request is record 2 on NATS (the audit log moves it to the stream's prompt).
    const capturedRaw = await storedMessageCount(jsm, STREAM_NAMES.raw, rawSubject(GLOBEX.tenant, captured.streamId));
    expect(capturedRaw).toBe(rawInNats + 1);
  });
});
