import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STREAM_NAMES, assemble, type ContractEvent, type ProviderName } from '@llm-stream/contract';
import { startOtlpCollector, startProcess, repoRoot, waitFor, type OtlpCollector } from '@llm-stream/testing';
import { toNatsHeaders } from '@llm-stream/pipeline';
import { AUDIT_CONSUMERS } from '../src/ingestion/audit-consumers.js';
import { CLIENT_REQUEST_RECORD } from '../src/ingestion/read-raw-message.js';
import { PostgresBackend } from '../src/store/postgres/postgres-backend.js';
import type { StoreBackend } from '../src/store/sql-backend.js';
import { SqliteBackend } from '../src/store/sqlite/sqlite-backend.js';
import { startAuthorizedNats, type AuthorizedNats } from './support/authorized-nats.js';
import { getJson } from './support/http.js';
import { auditBacklog, openJetStream, publishStream, type JetStreamSession } from './support/jetstream.js';
import { BACKENDS, postgresServer, stopPostgresServer } from './support/repository-backends.js';
import { startAudit, type Service } from './support/services.js';
import { newStreamId, transcriptStream, type StreamFixture } from './support/stream-fixtures.js';
import { ACME, API_KEYS, GLOBEX } from './support/tenants.js';

const CASES: readonly [ProviderName, string][] = [
  ['anthropic', 'tool_fragmented_json'],
  ['anthropic', 'unknown_event_type'],
  ['openai-chat', 'parallel_tools'],
  ['openai-chat', 'interrupted'],
  ['openai-responses', 'reasoning'],
  ['openai-responses', 'error_mid_stream'],
  ['gemini', 'multi_block'],
  ['gemini', 'interrupted'],
];

interface StreamList {
  streams: { stream_id: string; status: string; event_count: number; raw_count: number; trace_id: string | null }[];
  next_cursor: string | null;
}

afterAll(async () => {
  await stopPostgresServer();
});

describe.each(BACKENDS)('the audit-log service on %s, fed through real NATS JetStream', (backend) => {
  let nats: AuthorizedNats;
  let collector: OtlpCollector;
  let session: JetStreamSession;
  let audit: Service;
  let dir: string;
  let env: Record<string, string>;
  let store: StoreBackend;
  const streams: StreamFixture[] = [];

  const listAll = async (key: string): Promise<StreamList['streams']> => (await getJson<StreamList>(`${audit.url}/v1/streams?limit=500`, key)).body.streams;
  const allStored = async (): Promise<boolean> => {
    const listed = new Map((await listAll(ACME.key)).concat(await listAll(GLOBEX.key)).map((row) => [row.stream_id, row]));
    return streams.every((stream) => {
      const row = listed.get(stream.streamId);
      return row?.event_count === stream.events.length && row.raw_count === stream.raw.length;
    });
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'audit-service-'));
    collector = await startOtlpCollector();
    nats = await startAuthorizedNats();
    session = await openJetStream(await nats.connectAs('provisioner'));
    const database = backend === 'sqlite' ? { AUDIT_SQLITE_PATH: join(dir, 'audit.sqlite') } : { AUDIT_DATABASE_URL: await (await postgresServer()).createDatabase() };
    env = {
      ...nats.serviceEnv('audit-log'),
      GATEWAY_API_KEYS: API_KEYS,
      AUDIT_PROMPT_CAPTURE_TENANTS: GLOBEX.tenant,
      AUDIT_ACK_WAIT_MS: '3000',
      AUDIT_LAG_POLL_INTERVAL_MS: '250',
      TRACE_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: collector.tracesUrl,
      OTEL_BSP_SCHEDULE_DELAY: '100',
      ...database,
    };
    audit = await startAudit(env);
    store =
      backend === 'sqlite'
        ? new SqliteBackend(join(dir, 'audit.sqlite'))
        : new PostgresBackend(database.AUDIT_DATABASE_URL ?? '', { poolSize: 1, onIdleError: () => undefined });
    let traceNumber = 0;
    for (const tenant of [ACME.tenant, GLOBEX.tenant]) {
      for (const [provider, caseName] of CASES) {
        traceNumber += 1;
        const traceId = traceNumber.toString(16).padStart(32, 'c');
        const stream = transcriptStream(provider, caseName, { streamId: newStreamId(), tenant, traceId, startTs: Date.now() });
        streams.push(stream);
        await publishStream(session.js, stream, { traceparent: `00-${traceId}-${'2'.repeat(16)}-01` });
      }
    }
    await waitFor(allStored, { timeoutMs: 30_000, description: 'every published stream to be stored' });
  });

  afterAll(async () => {
    await audit.stop();
    await store.close();
    await session.close();
    await nats.stop();
    await collector.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves every stored stream with its events, assembled result and trace id', async () => {
    for (const stream of streams) {
      const key = stream.tenant === ACME.tenant ? ACME.key : GLOBEX.key;
      const { status, body } = await getJson<{ stream: { status: string; trace_id: string }; events: ContractEvent[]; result: unknown; draft: boolean; tool_calls: unknown[] }>(
        `${audit.url}/v1/streams/${stream.streamId}`,
        key,
      );
      expect(status).toBe(200);
      expect(body.events).toEqual(stream.contractEvents);
      const result = assemble(stream.contractEvents);
      expect(body.result).toEqual(result);
      expect(body.draft).toBe(result.status !== 'completed');
      expect(body.tool_calls).toEqual(result.blocks.filter((block) => block.kind === 'tool_call'));
      // stream_id -> trace id -> stream_id
      const byTrace = await getJson<StreamList>(`${audit.url}/v1/streams?trace_id=${body.stream.trace_id}`, key);
      expect(byTrace.body.streams.map((row) => row.stream_id)).toEqual([stream.streamId]);
    }
    // The audit's span of each stream continues the stream's trace (the terminal message's traceparent).
    await waitFor(
      () => {
        const spans = collector.spans();
        return streams.every((stream) =>
          spans.some((span) => span.name === 'llm.audit.store' && span.attributes['llm.stream_id'] === stream.streamId && span.traceId === stream.events[0]?.traceId && span.parentSpanId === '2'.repeat(16)),
        );
      },
      { description: 'an audit span per stream in its trace' },
    );
  });

  it('lets a tenant read its own streams only', async () => {
    const acmeStream = streams.find((stream) => stream.tenant === ACME.tenant);
    if (acmeStream === undefined) throw new Error('acme has streams');
    for (const route of ['', '/raw', '/verify']) {
      expect((await getJson(`${audit.url}/v1/streams/${acmeStream.streamId}${route}`, GLOBEX.key)).status).toBe(404);
      expect((await getJson(`${audit.url}/v1/streams/${acmeStream.streamId}${route}`, ACME.key)).status).toBe(200);
      expect((await getJson(`${audit.url}/v1/streams/${acmeStream.streamId}${route}`)).status).toBe(401);
      expect((await getJson(`${audit.url}/v1/streams/${acmeStream.streamId}${route}`, 'not-a-key')).status).toBe(401);
    }
    const listed = (await listAll(GLOBEX.key)).map((row) => row.stream_id).sort();
    expect(listed).toEqual(streams.filter((stream) => stream.tenant === GLOBEX.tenant).map((stream) => stream.streamId).sort());
    const stats = await getJson<{ streams: number }>(`${audit.url}/v1/stats`, GLOBEX.key);
    expect(stats.body.streams).toBe(CASES.length);
    expect((await getJson(`${audit.url}/v1/stats`)).status).toBe(401);
  });

  it('never stores a redelivered or republished message twice', async () => {
    await audit.stop();
    // Deleting the durable consumers makes JetStream deliver every stored message again, from the start.
    await session.jsm.consumers.delete(STREAM_NAMES.events, AUDIT_CONSUMERS.events);
    await session.jsm.consumers.delete(STREAM_NAMES.raw, AUDIT_CONSUMERS.raw);
    // Messages JetStream cannot deduplicate either (new Nats-Msg-Id): stored twice in the streams.
    for (const stream of streams.slice(0, 3)) await publishStream(session.js, stream, { msgIdSuffix: ':again' });
    audit = await startAudit(env);
    await waitFor(async () => (await auditBacklog(session.jsm)) === 0, { timeoutMs: 60_000, description: 'the redelivered backlog to be acked' });
    const metrics = await (await fetch(`${audit.url}/metrics`)).text();
    const counted = (consumer: string, outcome: string): number =>
      Number(new RegExp(`llm_audit_messages_total\\{consumer="${consumer}",outcome="${outcome}"\\} (\\d+)`).exec(metrics)?.[1] ?? 0);
    const eventCount = (list: readonly StreamFixture[]): number => list.reduce((sum, stream) => sum + stream.events.length, 0);
    // Everything came again (at least once more: a slow batch may even be redelivered twice), nothing was new.
    expect(counted(AUDIT_CONSUMERS.events, 'duplicate')).toBeGreaterThanOrEqual(eventCount(streams) + eventCount(streams.slice(0, 3)));
    expect(counted(AUDIT_CONSUMERS.events, 'stored')).toBe(0);
    expect(counted(AUDIT_CONSUMERS.raw, 'stored')).toBe(0);
    expect(await allStored()).toBe(true);
    const [counts] = await store.transaction((tx) =>
      tx.all<{ events: number; raw: number }>('SELECT (SELECT COUNT(*) FROM audit_events) AS events, (SELECT COUNT(*) FROM audit_raw) AS raw'),
    );
    expect(counts).toEqual({
      events: streams.reduce((sum, stream) => sum + stream.events.length, 0),
      raw: streams.reduce((sum, stream) => sum + stream.raw.length, 0),
    });
  });

  it('reports a tampered event at the right link, and an intact stream as valid', async () => {
    const [tampered, intact] = streams;
    if (intact === undefined || tampered === undefined) throw new Error('streams were published');
    const verify = async (stream: StreamFixture) =>
      (await getJson<{ ok: boolean; invariants: { ok: boolean }; chain: { ok: boolean; first_broken: { seq: number; reason: string } | null } }>(`${audit.url}/v1/streams/${stream.streamId}/verify`, ACME.key)).body;
    expect(await verify(tampered)).toMatchObject({ ok: true, invariants: { ok: true }, chain: { ok: true, first_broken: null } });
    const target = tampered.contractEvents[6];
    if (target?.type !== 'block.delta') throw new Error('event 7 of the transcript is a delta');
    const forged = JSON.stringify({ ...target, delta: { ...target.delta, text: `${target.delta.text}!` } });
    await store.transaction((tx) => tx.run('UPDATE audit_events SET body = $1 WHERE stream_id = $2 AND seq = $3', [forged, tampered.streamId, 7]));
    expect(await verify(tampered)).toMatchObject({ ok: false, chain: { ok: false, first_broken: { seq: 7, reason: 'content_hash_mismatch' } } });
    expect((await verify(intact)).ok).toBe(true);
  });

  it('stores the client request of a tenant with prompt capture on, and never of the others', async () => {
    const request = { model: 'm', messages: [{ role: 'user', content: 'secret plans' }], api_key: 'sk-should-not-stay' };
    const captured: Record<string, unknown> = {};
    for (const tenant of [ACME.tenant, GLOBEX.tenant]) {
      const stream = transcriptStream('anthropic', 'simple_text', { streamId: newStreamId(), tenant });
      await publishStream(session.js, stream);
      await session.js.publish(`llm.raw.${tenant}.${stream.streamId}`, JSON.stringify({ kind: CLIENT_REQUEST_RECORD, raw_seq: 1000, ts: Date.now(), body: request }), {
        headers: toNatsHeaders({ 'Llm-Record': CLIENT_REQUEST_RECORD, 'Nats-Msg-Id': `${stream.streamId}:request` }),
      });
      const key = tenant === ACME.tenant ? ACME.key : GLOBEX.key;
      await waitFor(async () => (await auditBacklog(session.jsm)) === 0 && (await getJson(`${audit.url}/v1/streams/${stream.streamId}`, key)).status === 200, {
        description: 'the stream and its request to be handled',
      });
      captured[tenant] = (await getJson<{ prompt?: unknown }>(`${audit.url}/v1/streams/${stream.streamId}`, key)).body.prompt;
      const raw = JSON.stringify((await getJson(`${audit.url}/v1/streams/${stream.streamId}/raw`, key)).body);
      expect(raw).not.toContain('secret plans');
    }
    expect(captured[ACME.tenant]).toBeUndefined();
    expect(captured[GLOBEX.tenant]).toEqual({ ...request, api_key: '[redacted]' });
  });

  it('logs ids, counts and outcomes, never content: not even of a message it cannot read', async () => {
    const marker = 'TOPSECRET';
    // V8 quotes such a text in its SyntaxError message: the message must not reach the log.
    await session.js.publish(`llm.events.${ACME.tenant}.st_broken`, `{"note": ${marker}}`);
    await waitFor(async () => /outcome="rejected"\} [1-9]/.test(await (await fetch(`${audit.url}/metrics`)).text()), {
      description: 'the unreadable message to be rejected',
    });
    const output = audit.process.lines.join('\n');
    expect(output).toContain('message cannot be stored');
    expect(output).not.toContain(marker);
    const texts = streams.flatMap((stream) => stream.contractEvents.flatMap((event) => (event.type === 'block.delta' && event.delta.text.length >= 8 ? [event.delta.text] : [])));
    expect(texts.length).toBeGreaterThan(10);
    for (const text of texts) expect(output).not.toContain(text);
  });

  it('answers an unknown route, a bad key and a bad query with the JSON error shape every service uses', async () => {
    const errorBody = (code: string): unknown => ({ error: { code, message: expect.any(String) as unknown } });
    expect(await getJson(`${audit.url}/v1/nothing-here`, ACME.key)).toEqual({ status: 404, body: errorBody('not_found') });
    expect(await getJson(`${audit.url}/v1/streams`)).toEqual({ status: 401, body: errorBody('unauthorized') });
    expect(await getJson(`${audit.url}/v1/streams?limit=abc`, ACME.key)).toEqual({ status: 400, body: errorBody('invalid_request') });
  });

  it('is ready while NATS and the database answer, and shows each consumer\'s lag (none once everything is stored)', async () => {
    const noLag = { undelivered: 0, unacked: 0, oldest_age_ms: 0, retention_ms: 86_400_000, measured_at: expect.any(Number) as unknown };
    const lagGone = async (): Promise<boolean> => {
      const { body } = await getJson<{ ingestion_lag: Record<string, { undelivered?: number; unacked?: number }> }>(`${audit.url}/health/ready`);
      return Object.values(AUDIT_CONSUMERS).every((consumer) => body.ingestion_lag[consumer]?.undelivered === 0 && body.ingestion_lag[consumer].unacked === 0);
    };
    await waitFor(lagGone, { timeoutMs: 10_000, description: 'the lag poller to see both consumers caught up' });
    expect(await getJson(`${audit.url}/health/ready`)).toEqual({
      status: 200,
      body: {
        status: 'ready',
        checks: { nats: 'ok', jetstream: 'ok', database: 'ok', ingestion: 'ok' },
        ingestion_lag: { [AUDIT_CONSUMERS.events]: noLag, [AUDIT_CONSUMERS.raw]: noLag },
      },
    });
    const metrics = await (await fetch(`${audit.url}/metrics`)).text();
    for (const consumer of Object.values(AUDIT_CONSUMERS)) {
      expect(metrics).toContain(`llm_audit_ingestion_lag_seconds{consumer="${consumer}"} 0`);
      expect(metrics).toContain(`llm_audit_ingestion_lag_messages{consumer="${consumer}",state="undelivered"} 0`);
    }
  });
});

describe('the audit-log configuration', () => {
  it('refuses an invalid setting at start, naming the variable and never echoing a database URL', async () => {
    const child = startProcess(process.execPath, [join(repoRoot(), 'apps/audit-log/dist/main.js')], {
      name: 'audit-log',
      env: { AUDIT_DATABASE_URL: 'mysql://user:hunter2@db/audit' },
    });
    expect(await child.waitForExit()).toEqual({ code: 1, signal: null });
    const line = child.lines.find((text) => text.includes('AUDIT_DATABASE_URL')) ?? '';
    expect(JSON.parse(line)).toMatchObject({ level: 'error', variable: 'AUDIT_DATABASE_URL' });
    expect(child.lines.join('\n')).not.toContain('hunter2');
  });
});
