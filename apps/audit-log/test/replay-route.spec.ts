// The service-kit's config classes (loaded through ApiError) carry class-validator decorators.
import 'reflect-metadata';
import { join } from 'node:path';
import { AnthropicAdapter, createProviderAdapter, replayCheck, type ProviderAdapter, type ReplayReport, type StreamReplay } from '@llm-stream/adapters';
import type { MachineInput, ProviderName, StoredTracePage } from '@llm-stream/contract';
import { listTranscripts, waitFor } from '@llm-stream/testing';
import { toTraceRecord } from '../src/query/raw-replay.js';
import { ReplayService } from '../src/replay/replay.service.js';
import { getJson } from './support/http.js';
import { mapConcurrently, startPipeline, storedInFull, streamThroughGateway, type Pipeline } from './support/pipeline.js';
import { BACKENDS, attachRepository, postgresServer, stopPostgresServer, type RepositoryUnderTest, type StoreLocation } from './support/repository-backends.js';
import { startAudit, type Service } from './support/services.js';
import { ACME, ACME_SCOPED, GLOBEX } from './support/tenants.js';

interface Recorded {
  readonly provider: ProviderName;
  readonly name: string;
  readonly streamId: string;
}

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

/** Every page of `GET /v1/replay` with the query, summed as a deployment pipeline sums them. */
async function replayAll(url: string, query: string, key: string = ACME.key): Promise<{ pages: number; counts: ReplayReport['counts']; changed: ReplayReport['changed'] }> {
  const counts = { replayed: 0, unchanged: 0, changed: 0, unreplayable: 0 };
  const changed: ReplayReport['changed'][number][] = [];
  let pages = 0;
  for (let cursor: string | null = ''; cursor !== null; pages += 1) {
    const { status, body }: { status: number; body: ReplayReport } = await getJson<ReplayReport>(`${url}/v1/replay?${query}${cursor === '' ? '' : `&cursor=${cursor}`}`, key);
    expect(status).toBe(200);
    for (const name of ['replayed', 'unchanged', 'changed', 'unreplayable'] as const) counts[name] += body.counts[name];
    changed.push(...body.changed);
    cursor = body.next_cursor;
  }
  return { pages, counts, changed };
}

/**
 * The audit API's replay routes against a store filled by the real pipeline (replay provider, gateway,
 * normalizer, audit log) with the whole conformance corpus, on SQLite and on PostgreSQL: this build's adapters
 * change no outcome; the route's service built over the same store with a deliberately changed adapter reports
 * exactly the stream it changes; a stored outcome this build does not reach is reported over HTTP.
 */
describe.each(BACKENDS.map((backend) => [backend] as const))('the replay routes on %s', (backend) => {
  let pipeline: Pipeline;
  let audit: Service;
  let store: RepositoryUnderTest;
  const recorded: Recorded[] = [];
  const files = listTranscripts();

  beforeAll(async () => {
    pipeline = await startPipeline();
    const location: StoreLocation = backend === 'sqlite' ? { sqlitePath: join(pipeline.dir, 'audit.sqlite') } : { databaseUrl: await (await postgresServer()).createDatabase() };
    audit = await startAudit({ ...pipeline.auditEnv, ...('sqlitePath' in location ? { AUDIT_SQLITE_PATH: location.sqlitePath } : { AUDIT_DATABASE_URL: location.databaseUrl }) });
    store = attachRepository(location);
    const streams = await mapConcurrently(files, 8, (file) => streamThroughGateway(pipeline.gateway.url, ACME.key, file.provider as ProviderName, file.name));
    files.forEach((file, index) => recorded.push({ provider: file.provider as ProviderName, name: file.name, streamId: streams[index]!.streamId }));
    await waitFor(async () => (await Promise.all(recorded.map(({ streamId }) => storedInFull(pipeline, audit.url, ACME.key, ACME.tenant, streamId)))).every(Boolean), {
      timeoutMs: 60_000,
      intervalMs: 250,
      description: 'every transcript stream to be stored in full',
    });
  }, 300_000);

  afterAll(async () => {
    await store.close();
    await audit.stop();
    await pipeline.stop();
    await stopPostgresServer();
  });

  it('finds no changed outcome with this build, page by page, with totals per provider', async () => {
    const all = await replayAll(audit.url, 'limit=7');
    expect(all).toEqual({ pages: Math.ceil(recorded.length / 7), counts: { replayed: recorded.length, unchanged: recorded.length, changed: 0, unreplayable: 0 }, changed: [] });
    const { body } = await getJson<ReplayReport>(`${audit.url}/v1/replay?limit=500`, ACME.key);
    const per = (provider: string): number => recorded.filter((stream) => stream.provider === provider).length;
    expect(body.by_provider).toEqual(Object.fromEntries([...new Set(recorded.map((stream) => stream.provider))].sort().map((provider) => [provider, { replayed: per(provider), changed: 0, unreplayable: 0 }])));
    expect({ unreplayable: body.unreplayable, next_cursor: body.next_cursor }).toEqual({ unreplayable: [], next_cursor: null });
  });

  it("replays what the list route's filters select", async () => {
    const gemini = await replayAll(audit.url, 'provider=gemini');
    expect(gemini.counts.replayed).toBe(recorded.filter((stream) => stream.provider === 'gemini').length);
    const future = await replayAll(audit.url, `from=${String(Date.now() + 3_600_000)}`);
    expect(future).toEqual({ pages: 1, counts: { replayed: 0, unchanged: 0, changed: 0, unreplayable: 0 }, changed: [] });
  });

  it('answers one stream with its stored and replayed outcome, the same with this build', async () => {
    await mapConcurrently(recorded, 4, async (stream) => {
      const { status, body } = await getJson<StreamReplay>(`${audit.url}/v1/streams/${stream.streamId}/replay`, ACME.key);
      expect({ stream: stream.name, status, changes: body.changes, unreplayable: body.unreplayable }).toEqual({ stream: stream.name, status: 200, changes: [], unreplayable: null });
      expect(body.replayed).toEqual(body.stored);
      expect({ stream_id: body.stream_id, provider: body.provider, model: body.model }).toEqual({ stream_id: stream.streamId, provider: stream.provider, model: stream.name });
    });
  });

  it('pages the stored traces (events and raw records) for a replay on the caller\'s side', async () => {
    const seen: StoredTracePage['streams'][number][] = [];
    for (let cursor: string | null = ''; cursor !== null; ) {
      const { status, body }: { status: number; body: StoredTracePage } = await getJson<StoredTracePage>(`${audit.url}/v1/replay/traces?limit=50${cursor === '' ? '' : `&cursor=${cursor}`}`, ACME.key);
      expect(status).toBe(200);
      seen.push(...body.streams);
      cursor = body.next_cursor;
    }
    expect(seen.map((stream) => stream.stream_id).sort()).toEqual(recorded.map((stream) => stream.streamId).sort());
    const target = recorded.find((stream) => stream.provider === 'anthropic' && stream.name === 'pause_turn')!;
    const trace = seen.find((stream) => stream.stream_id === target.streamId)!;
    const { body: detail } = await getJson<{ events: unknown[] }>(`${audit.url}/v1/streams/${target.streamId}`, ACME.key);
    expect(trace.events).toEqual(detail.events);
    expect(trace.records).toEqual((await store.repository.rawRecords(target.streamId)).map(toTraceRecord));
    // What the CLI does with them: the same verdict as the route's service, with a changed adapter too.
    expect(replayCheck({ running: false, records: trace.records, events: trace.events }, { createAdapter: pauseTurnEndsTheTurn })).toMatchObject({
      kind: 'replayed',
      changes: [{ field: 'stop_reason', stored: 'other', replayed: 'end_turn' }],
    });
  });

  it("the route's service with a deliberately changed adapter reports exactly the stream it changes", async () => {
    const changedBuild = new ReplayService(store.repository, pauseTurnEndsTheTurn);
    const report = await changedBuild.page(ACME.tenant, { limit: '500' });
    const target = recorded.find((stream) => stream.provider === 'anthropic' && stream.name === 'pause_turn')!;
    const change = { field: 'stop_reason', stored: 'other', replayed: 'end_turn' };
    expect(report.counts).toEqual({ replayed: recorded.length, unchanged: recorded.length - 1, changed: 1, unreplayable: 0 });
    expect(report.changed).toEqual([{ stream_id: target.streamId, provider: 'anthropic', model: 'pause_turn', redacted: false, changes: [change] }]);
    expect(report.by_provider['anthropic']).toEqual({ replayed: recorded.filter((stream) => stream.provider === 'anthropic').length, changed: 1, unreplayable: 0 });
    const one = await changedBuild.stream(ACME.tenant, target.streamId);
    expect({ changes: one.changes, stored: one.stored.stop_reason, replayed: one.replayed?.stop_reason }).toEqual({ changes: [change], stored: 'other', replayed: 'end_turn' });
  });

  it('refuses with typed errors: 403 without audit:full, 404 for an unknown or another tenant\'s stream, 400 for bad filters', async () => {
    const target = recorded[0]!.streamId;
    for (const key of [ACME_SCOPED.read, ACME_SCOPED.readReasoning, ACME_SCOPED.streamsOnly]) {
      for (const path of [`/v1/streams/${target}/replay`, '/v1/replay', '/v1/replay/traces']) {
        expect({ key, path, ...(await getJson(`${audit.url}${path}`, key)) }).toEqual({ key, path, status: 403, body: { error: { code: 'insufficient_scope', message: expect.stringContaining('audit:full') as string } } });
      }
    }
    expect(await getJson(`${audit.url}/v1/replay`)).toMatchObject({ status: 401, body: { error: { code: 'unauthorized' } } });
    for (const [key, id] of [[GLOBEX.key, target], [ACME.key, 'st_00000000000000000000000000'], [ACME.key, 'not-a-stream-id']] as const) {
      expect(await getJson(`${audit.url}/v1/streams/${id}/replay`, key)).toEqual({ status: 404, body: { error: { code: 'not_found', message: `no stream ${id}` } } });
    }
    const bad = [
      ['status=sideways', /^status must be one of/],
      ['status=running', /running stream has no outcome/],
      ['limit=0', /^limit must be an integer/],
      ['limit=501', /^limit must be an integer/],
      ['provider=no-such-protocol', /^provider must be one of/],
      ['from=yesterday', /^from must be/],
      ['cursor=nonsense', /^cursor is not a cursor/],
      ['replay_everything=1', /^unknown query parameter/],
    ] as const;
    for (const [query, message] of bad) {
      expect({ query, ...(await getJson(`${audit.url}/v1/replay?${query}`, ACME.key)) }).toEqual({ query, status: 400, body: { error: { code: 'invalid_request', message: expect.stringMatching(message) as string } } });
    }
  });

  // Last: it alters the store the tests above read.
  it('reports over HTTP a stream whose stored outcome this build does not reach', async () => {
    const target = recorded.find((stream) => stream.provider === 'anthropic' && stream.name === 'simple_text')!;
    const [row] = await store.sql.all<{ seq: number; body: string }>("SELECT seq, body FROM audit_events WHERE stream_id = $1 AND type = 'stream.done'", [target.streamId]);
    const altered = JSON.stringify({ ...(JSON.parse(row!.body) as object), stop_reason: 'max_tokens' });
    await store.sql.run('UPDATE audit_events SET body = $1 WHERE stream_id = $2 AND seq = $3', [altered, target.streamId, row!.seq]);
    const change = { field: 'stop_reason', stored: 'max_tokens', replayed: 'end_turn' };
    const all = await replayAll(audit.url, 'provider=anthropic&limit=500');
    const anthropic = recorded.filter((stream) => stream.provider === 'anthropic').length;
    expect(all).toEqual({ pages: 1, counts: { replayed: anthropic, unchanged: anthropic - 1, changed: 1, unreplayable: 0 }, changed: [{ stream_id: target.streamId, provider: 'anthropic', model: 'simple_text', redacted: false, changes: [change] }] });
    const { body } = await getJson<StreamReplay>(`${audit.url}/v1/streams/${target.streamId}/replay`, ACME.key);
    expect(body.changes).toEqual([change]);
  });
});
