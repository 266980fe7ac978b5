import fc from 'fast-check';
import { CHAIN_GENESIS, contentHash, linkHash, verifyChain } from '../src/chain/hash-chain.js';
import type { IncomingEvent, IncomingRaw } from '../src/store/audit-repository.js';
import { BACKENDS, openRepository, stopPostgresServer, type RepositoryUnderTest } from './support/repository-backends.js';
import { newStreamId, transcriptStream, type StreamFixture } from './support/stream-fixtures.js';

const NOW = 1_900_000_000_000;

/** The chain head a stream's events must end with, computed independently of the store. */
function expectedHead(fixture: StreamFixture): string {
  return fixture.contractEvents.reduce((previous, event) => linkHash(previous, contentHash(event)), CHAIN_GENESIS);
}

function storedBodies(rows: readonly { body: string }[]): unknown[] {
  return rows.map((row) => JSON.parse(row.body) as unknown);
}

afterAll(async () => {
  await stopPostgresServer();
});

describe.each(BACKENDS)('AuditRepository on %s (the same suite for both backends)', (backend) => {
  let db: RepositoryUnderTest;
  let tenantNumber = 0;
  const freshTenant = (): string => {
    tenantNumber += 1;
    return `t${String(tenantNumber)}_${backend}`;
  };
  const fixture = (
    provider: Parameters<typeof transcriptStream>[0],
    caseName: string,
    options: { tenant?: string; startTs?: number; traceId?: string; route?: string } = {},
  ): StreamFixture =>
    transcriptStream(provider, caseName, { streamId: newStreamId(), tenant: options.tenant ?? freshTenant(), ...options });

  beforeAll(async () => {
    db = await openRepository(backend);
  });

  afterAll(async () => {
    await db.close();
  });

  it('records its migrations as versions and applies each once', async () => {
    expect(await db.repository.migrate()).toEqual([]);
    expect(await db.sql.all('SELECT version, name FROM schema_migrations ORDER BY version')).toEqual([
      { version: 1, name: 'initial' },
      { version: 2, name: 'stream-route' },
      { version: 3, name: 'event-jetstream-time' },
      { version: 4, name: 'stream-cache-creation' },
    ]);
  });

  it("keeps a stream's usage as stream.done reported it, cache reads, cache writes and their split per lifetime included", async () => {
    const stream = fixture('anthropic', 'usage_cache_creation_split_across_events');
    await db.repository.ingestEvents(stream.events, NOW);
    const done = stream.contractEvents.at(-1);
    if (done?.type !== 'stream.done') throw new Error('the transcript completes');
    expect(done.usage).toMatchObject({ cached_input_tokens: 1024, cache_creation_input_tokens: 3072, cache_creation: { ephemeral_5m_input_tokens: 1024 } });
    expect((await db.repository.findStream(stream.tenant, stream.streamId))?.record.usage).toEqual(done.usage);
  });

  it('stores a completed stream: one row per event and per raw record, the stream row from its events', async () => {
    const stream = fixture('anthropic', 'tool_fragmented_json', { traceId: 'a'.repeat(32) });
    await db.repository.ingestRaw(stream.raw, NOW);
    const result = await db.repository.ingestEvents(stream.events, NOW);
    expect(result).toMatchObject({ stored: stream.events.length, duplicates: 0, foreign: 0 });
    expect(result.ended).toEqual([{ streamId: stream.streamId, status: 'completed', batchIndex: stream.events.length - 1 }]);

    const stored = await db.repository.findStream(stream.tenant, stream.streamId);
    const done = stream.contractEvents.at(-1);
    if (done?.type !== 'stream.done') throw new Error('the transcript completes');
    expect(stored?.record).toEqual({
      stream_id: stream.streamId,
      tenant: stream.tenant,
      provider: 'anthropic',
      model: 'tool_fragmented_json',
      route: null,
      gateway_id: 'local',
      status: 'completed',
      error_category: null,
      error_provider_code: null,
      error_message: null,
      stop_reason: 'tool_use',
      provider_stop_reason: 'tool_use',
      usage: done.usage ?? null,
      response_id: done.response_id ?? null,
      provider_model: done.provider_model ?? null,
      trace_id: 'a'.repeat(32),
      started_at: stream.contractEvents[0]?.ts,
      ended_at: done.ts,
      terminal_seq: done.seq,
      event_count: stream.events.length,
      raw_count: stream.raw.length,
      warning_count: 0,
      unknown_event_count: 0,
      prompt_captured: false,
    });
    expect(storedBodies(await db.repository.events(stream.streamId))).toEqual(stream.contractEvents);
    expect(stored?.chain).toEqual({ seq: stream.events.length, hash: expectedHead(stream) });
  });

  it('records how failed and interrupted streams ended, and counts unknown-event warnings', async () => {
    const failed = fixture('anthropic', 'error_mid_stream');
    const interrupted = fixture('openai-chat', 'interrupted');
    const unknown = fixture('anthropic', 'unknown_event_type');
    for (const stream of [failed, interrupted, unknown]) await db.repository.ingestEvents(stream.events, NOW);
    const failure = failed.contractEvents.at(-1);
    if (failure?.type !== 'stream.error') throw new Error('the transcript fails');
    expect((await db.repository.findStream(failed.tenant, failed.streamId))?.record).toMatchObject({
      status: 'failed',
      error_category: failure.error.category,
      error_provider_code: failure.error.provider_code,
      error_message: failure.error.message,
      ended_at: failure.ts,
      usage: null,
    });
    expect((await db.repository.findStream(interrupted.tenant, interrupted.streamId))?.record).toMatchObject({
      status: 'interrupted',
      error_category: 'transport_interrupted',
    });
    const warnings = unknown.contractEvents.filter((event) => event.type === 'stream.warning');
    expect(warnings.length).toBeGreaterThan(0);
    expect((await db.repository.findStream(unknown.tenant, unknown.streamId))?.record).toMatchObject({
      warning_count: warnings.length,
      unknown_event_count: warnings.length,
    });
  });

  it('never stores a redelivered event or raw record twice', async () => {
    const stream = fixture('openai-responses', 'tool_fragmented_json');
    await db.repository.ingestEvents(stream.events.slice(0, 5), NOW);
    // A redelivery of the first five with the rest, then everything again, then a batch that repeats itself.
    const second = await db.repository.ingestEvents(stream.events, NOW);
    expect(second).toMatchObject({ stored: stream.events.length - 5, duplicates: 5 });
    expect(await db.repository.ingestEvents(stream.events, NOW)).toMatchObject({ stored: 0, duplicates: stream.events.length, ended: [] });
    expect(await db.repository.ingestEvents([...stream.events, ...stream.events], NOW)).toMatchObject({ stored: 0 });
    await db.repository.ingestRaw(stream.raw, NOW);
    expect(await db.repository.ingestRaw([...stream.raw, ...stream.raw], NOW)).toMatchObject({ stored: 0, duplicates: stream.raw.length * 2 });

    const stored = await db.repository.findStream(stream.tenant, stream.streamId);
    expect(stored?.record).toMatchObject({ event_count: stream.events.length, raw_count: stream.raw.length });
    expect(storedBodies(await db.repository.events(stream.streamId))).toEqual(stream.contractEvents);
    expect(await db.repository.rawRecords(stream.streamId)).toHaveLength(stream.raw.length);
  });

  it('reads a raw trace from a point of LLM_RAW on: only the records stored after that JetStream sequence', async () => {
    const stream = fixture('anthropic', 'tool_fragmented_json');
    await db.repository.ingestRaw(stream.raw, NOW);
    const whole = await db.repository.rawRecords(stream.streamId);
    const middle = whole[Math.floor(whole.length / 2)]?.js_seq ?? 0;
    expect(await db.repository.rawRecords(stream.streamId, 0)).toEqual(whole);
    expect(await db.repository.rawRecords(stream.streamId, middle)).toEqual(whole.filter((row) => row.js_seq > middle));
    expect(await db.repository.rawRecords(stream.streamId, whole.at(-1)?.js_seq ?? 0)).toEqual([]);
  });

  it('stores concurrent event and raw batches of the same streams, new and existing, without deadlock or loss', async () => {
    // The two ingestion loops commit on their own connections and lock the same stream rows: every batch
    // below races the other consumer's over the same streams, some seen for the first time by both.
    const tenant = freshTenant();
    const streams = Array.from({ length: 12 }, (_, index) =>
      index % 2 === 0 ? fixture('anthropic', 'tool_fragmented_json', { tenant }) : fixture('openai-chat', 'parallel_tools', { tenant }),
    );
    const slices = 4;
    const part = <T>(items: readonly T[], index: number): T[] => items.filter((_, position) => position % slices === index);
    for (let index = 0; index < slices; index += 1) {
      // Reversed stream order on one side: the batches meet the rows in opposite orders.
      await Promise.all([
        db.repository.ingestEvents(streams.flatMap((stream) => part(stream.events, index)), NOW),
        db.repository.ingestRaw([...streams].reverse().flatMap((stream) => part(stream.raw, index)), NOW),
        db.repository.ingestRaw(streams.flatMap((stream) => part(stream.raw, index)), NOW),
      ]);
    }
    for (const stream of streams) {
      const stored = await db.repository.findStream(tenant, stream.streamId);
      expect(stored?.record).toMatchObject({ event_count: stream.events.length, raw_count: stream.raw.length, status: 'completed' });
      expect(stored?.chain).toEqual({ seq: stream.events.length, hash: expectedHead(stream) });
    }
  });

  it('links an event that arrived after a gap once the gap is filled', async () => {
    const stream = fixture('gemini', 'multi_block');
    const [first, second, ...rest] = stream.events;
    if (first === undefined || second === undefined) throw new Error('the transcript has events');
    await db.repository.ingestEvents([first, ...rest], NOW);
    const gapped = await db.repository.findStream(stream.tenant, stream.streamId);
    expect(gapped?.chain.seq).toBe(1);
    const beforeFill = verifyChain(await db.repository.events(stream.streamId), gapped?.chain ?? { seq: 0, hash: CHAIN_GENESIS });
    expect(beforeFill.first_broken).toMatchObject({ seq: 2, reason: 'missing_event' });

    await db.repository.ingestEvents([second], NOW);
    const filled = await db.repository.findStream(stream.tenant, stream.streamId);
    expect(filled?.chain).toEqual({ seq: stream.events.length, hash: expectedHead(stream) });
    expect(filled?.record.status).toBe('completed');
    expect(verifyChain(await db.repository.events(stream.streamId), filled?.chain ?? { seq: 0, hash: '' })).toMatchObject({ ok: true });
  });

  it('ends with the same rows and chain whatever the batching, repetition and order of delivery', async () => {
    const template = fixture('anthropic', 'multi_block');
    const n = template.events.length;
    const indexes = Array.from({ length: n }, (_, index) => index);
    await fc.assert(
      fc.asyncProperty(
        fc.shuffledSubarray(indexes, { minLength: n, maxLength: n }),
        fc.array(fc.tuple(fc.nat({ max: n - 1 }), fc.nat()), { maxLength: n }),
        fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 20 }),
        async (order, repeats, sizes) => {
          const stream = fixture('anthropic', 'multi_block', { tenant: template.tenant });
          const deliveries = [...order];
          for (const [index, at] of repeats) deliveries.splice(at % (deliveries.length + 1), 0, index);
          let position = 0;
          for (let batch = 0; position < deliveries.length; batch += 1) {
            const size = sizes[batch % sizes.length] ?? 1;
            const items: IncomingEvent[] = deliveries.slice(position, position + size).map((index) => stream.events[index] as IncomingEvent);
            position += size;
            await db.repository.ingestEvents(items, NOW);
          }
          const stored = await db.repository.findStream(stream.tenant, stream.streamId);
          expect(stored?.chain).toEqual({ seq: n, hash: expectedHead(stream) });
          expect(stored?.record).toMatchObject({ event_count: n, status: 'completed', terminal_seq: n });
          const rows = await db.repository.events(stream.streamId);
          expect(storedBodies(rows)).toEqual(stream.contractEvents);
          expect(verifyChain(rows, stored?.chain ?? { seq: 0, hash: '' }).ok).toBe(true);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('keeps raw records byte-exact (NUL included), in LLM_RAW order, idempotent on (stream, attempt, raw_seq)', async () => {
    const stream = fixture('openai-chat', 'simple_text');
    const frame = stream.raw.find((item): item is Extract<IncomingRaw, { type: 'record' }> => item.type === 'record' && item.kind === 'frame');
    if (frame === undefined) throw new Error('the transcript has frames');
    const withNul = { ...frame, body: `data: {"x":"a\u0000b"}\n\n` };
    const reversed = [...stream.raw].reverse().map((item) => (item === frame ? withNul : item));
    const result = await db.repository.ingestRaw(reversed, NOW);
    expect(result).toMatchObject({ stored: stream.raw.length, duplicates: 0 });
    const rows = await db.repository.rawRecords(stream.streamId);
    expect(rows.map((row) => row.js_seq)).toEqual(stream.raw.map((_, index) => index + 1));
    expect(rows.find((row) => row.raw_seq === frame.rawSeq)?.body).toBe(withNul.body);
    expect(rows[0]).toMatchObject({ kind: 'stream.open', attempt: 0, raw_seq: 1, redacted: false });
    const stored = await db.repository.findStream(stream.tenant, stream.streamId);
    expect(stored?.record).toMatchObject({ provider: 'openai-chat', model: 'simple_text', gateway_id: 'local', raw_count: stream.raw.length, event_count: 0 });
  });

  it("records the stream's gateway route from stream.open or from stream.start, and lists by route", async () => {
    const tenant = freshTenant();
    const fromRaw = fixture('openai-chat', 'simple_text', { tenant, route: 'azure-eu' });
    const fromEvents = fixture('openai-chat', 'multi_block', { tenant, route: 'groq' });
    const before = fixture('openai-chat', 'simple_text', { tenant });
    await db.repository.ingestRaw(fromRaw.raw, NOW);
    await db.repository.ingestEvents(fromEvents.events, NOW);
    await db.repository.ingestEvents(before.events, NOW);
    expect((await db.repository.findStream(tenant, fromRaw.streamId))?.record).toMatchObject({ route: 'azure-eu', model: 'simple_text' });
    expect((await db.repository.findStream(tenant, fromEvents.streamId))?.record).toMatchObject({ route: 'groq', model: 'multi_block' });
    expect((await db.repository.findStream(tenant, before.streamId))?.record).toMatchObject({ route: null });
    const listed = await db.repository.listStreams(tenant, { route: 'groq' }, { limit: 10 });
    expect(listed.streams.map((stream) => stream.stream_id)).toEqual([fromEvents.streamId]);
  });

  it('refuses events of a stream published under another tenant, and shows a stream to its tenant only', async () => {
    const stream = fixture('anthropic', 'simple_text');
    await db.repository.ingestEvents(stream.events.slice(0, 3), NOW);
    const intruder = freshTenant();
    const forged = stream.events.slice(3).map((item) => ({ ...item, tenant: intruder }));
    expect(await db.repository.ingestEvents(forged, NOW)).toMatchObject({ stored: 0, foreign: forged.length });
    expect(await db.repository.ingestRaw(stream.raw.map((item) => ({ ...item, tenant: intruder })), NOW)).toMatchObject({ stored: 0, foreign: stream.raw.length });
    expect(await db.repository.findStream(intruder, stream.streamId)).toBeUndefined();
    expect((await db.repository.findStream(stream.tenant, stream.streamId))?.record.event_count).toBe(3);
    expect((await db.repository.listStreams(intruder, {}, { limit: 10 })).streams).toEqual([]);
  });

  it('lists newest first with filters, and cursor pages that cover every match exactly once', async () => {
    const tenant = freshTenant();
    const cases: [Parameters<typeof transcriptStream>[0], string][] = [
      ['anthropic', 'simple_text'],
      ['anthropic', 'error_mid_stream'],
      ['openai-chat', 'interrupted'],
      ['gemini', 'simple_text'],
      ['openai-responses', 'simple_text'],
    ];
    const streams = Array.from({ length: 25 }, (_, index) => {
      const [provider, caseName] = cases[index % cases.length] ?? cases[0]!;
      return fixture(provider, caseName, { tenant, startTs: 1_700_000_000_000 + index * 1_000, traceId: index.toString(16).padStart(32, '0').replace(/^0/, 'f') });
    });
    await db.repository.ingestEvents(
      streams.flatMap((stream) => stream.events),
      NOW,
    );
    const newestFirst = [...streams].reverse().map((stream) => stream.streamId);

    const pages: string[] = [];
    let page = await db.repository.listStreams(tenant, {}, { limit: 7 });
    for (;;) {
      pages.push(...page.streams.map((stream) => stream.stream_id));
      if (page.next === undefined) break;
      page = await db.repository.listStreams(tenant, {}, { limit: 7, after: page.next });
    }
    expect(pages).toEqual(newestFirst);

    const ids = async (filter: Parameters<typeof db.repository.listStreams>[1]): Promise<string[]> =>
      (await db.repository.listStreams(tenant, filter, { limit: 100 })).streams.map((stream) => stream.stream_id);
    expect(await ids({ status: 'failed' })).toEqual(newestFirst.filter((_, index) => (24 - index) % 5 === 1));
    expect(await ids({ errorCategory: 'transport_interrupted' })).toEqual(newestFirst.filter((_, index) => (24 - index) % 5 === 2));
    expect(await ids({ provider: 'gemini', model: 'simple_text' })).toEqual(newestFirst.filter((_, index) => (24 - index) % 5 === 3));
    expect(await ids({ from: 1_700_000_010_000, to: 1_700_000_012_000 })).toEqual([streams[11]?.streamId, streams[10]?.streamId]);
    expect(await ids({ traceId: streams[4]?.events[0]?.traceId ?? '' })).toEqual([streams[4]?.streamId]);
    expect(await ids({ status: 'running' })).toEqual([]);
  });

  it('counts streams by terminal state, error category, provider and unknown events', async () => {
    const tenant = freshTenant();
    const streams = [
      fixture('anthropic', 'simple_text', { tenant, startTs: 1_000 }),
      fixture('anthropic', 'unknown_event_type', { tenant, startTs: 2_000 }),
      fixture('openai-chat', 'interrupted', { tenant, startTs: 3_000 }),
      fixture('gemini', 'error_mid_stream', { tenant, startTs: 4_000 }),
    ];
    for (const stream of streams) await db.repository.ingestEvents(stream.events, NOW);
    const unknown = streams[1]?.contractEvents.filter((event) => event.type === 'stream.warning') ?? [];
    const stats = await db.repository.stats(tenant, {});
    expect(stats).toMatchObject({
      streams: 4,
      by_status: { completed: 2, interrupted: 1, failed: 1 },
      by_error_category: { transport_interrupted: 1 },
      by_provider: { anthropic: 2, 'openai-chat': 1, gemini: 1 },
      unknown_events: { total: unknown.length, by_provider: { anthropic: unknown.length } },
    });
    expect(Object.values(stats.unknown_events.by_type).reduce((a, b) => a + b, 0)).toBe(unknown.length);
    expect((await db.repository.stats(tenant, { from: 2_500 })).streams).toBe(2);
  });

  it("keeps JetStream's message time of each event beside its ts (null where the message had none)", async () => {
    const stream = fixture('anthropic', 'simple_text');
    const [first, ...rest] = stream.events;
    if (first === undefined) throw new Error('the transcript has events');
    await db.repository.ingestEvents([{ ...first, jsTime: null }, ...rest.map((item) => ({ ...item, jsTime: item.event.ts + 7 }))], NOW);
    const rows = await db.repository.events(stream.streamId);
    expect(rows.map((row) => [row.seq, row.js_time])).toEqual(stream.contractEvents.map((event, index) => [event.seq, index === 0 ? null : event.ts + 7]));
  });

  it('counts streams by status and error category in buckets over time, empty buckets included', async () => {
    const tenant = freshTenant();
    const streams = [
      fixture('anthropic', 'simple_text', { tenant, startTs: 1_000 }),
      fixture('openai-chat', 'interrupted', { tenant, startTs: 1_500 }),
      fixture('gemini', 'error_mid_stream', { tenant, startTs: 3_200 }),
      fixture('anthropic', 'simple_text', { tenant, startTs: 9_000 }),
    ];
    for (const stream of streams) await db.repository.ingestEvents(stream.events, NOW);
    const failure = streams[2]?.contractEvents.at(-1);
    if (failure?.type !== 'stream.error') throw new Error('the transcript fails');
    const buckets = await db.repository.statsTimeline(tenant, { from: 1_000, to: 5_000 }, 1_000);
    expect(buckets).toEqual([
      { start: 1_000, streams: 2, by_status: { completed: 1, interrupted: 1 }, by_error_category: { transport_interrupted: 1 } },
      { start: 2_000, streams: 0, by_status: {}, by_error_category: {} },
      { start: 3_000, streams: 1, by_status: { failed: 1 }, by_error_category: { [failure.error.category]: 1 } },
      { start: 4_000, streams: 0, by_status: {}, by_error_category: {} },
    ]);
  });

  it('groups unknown provider events by provider and type, with the streams that had them, newest first', async () => {
    const tenant = freshTenant();
    const older = fixture('anthropic', 'unknown_event_type', { tenant, startTs: 1_000 });
    const newer = fixture('anthropic', 'unknown_event_type', { tenant, startTs: 2_000 });
    const plain = fixture('anthropic', 'simple_text', { tenant, startTs: 3_000 });
    for (const stream of [older, newer, plain]) await db.repository.ingestEvents(stream.events, NOW);
    const types = new Set(older.contractEvents.flatMap((event) => (event.type === 'stream.warning' ? [event.warning.provider_event_type ?? event.warning.code] : [])));
    const groups = await db.repository.unknownEvents(tenant, {});
    expect(groups.map((group) => group.type).sort()).toEqual([...types].sort());
    for (const group of groups) expect(group).toEqual({ provider: 'anthropic', type: group.type, streams: 2, stream_ids: [newer.streamId, older.streamId] });
    expect(await db.repository.unknownEvents(tenant, { from: 1_500 })).toEqual(groups.map((group) => ({ ...group, streams: 1, stream_ids: [newer.streamId] })));
  });

  it('reports a tampered event at the link that breaks', async () => {
    const stream = fixture('anthropic', 'multi_block');
    await db.repository.ingestEvents(stream.events, NOW);
    const head = async () => (await db.repository.findStream(stream.tenant, stream.streamId))?.chain ?? { seq: 0, hash: '' };
    const verify = async () => verifyChain(await db.repository.events(stream.streamId), await head());
    expect(await verify()).toMatchObject({ ok: true, verified: stream.events.length });

    const target = stream.contractEvents[4];
    if (target === undefined) throw new Error('the transcript has events');
    const altered = JSON.stringify({ ...target, ts: target.ts + 1 });
    await db.sql.run('UPDATE audit_events SET body = $1 WHERE stream_id = $2 AND seq = $3', [altered, stream.streamId, 5]);
    expect((await verify()).first_broken).toMatchObject({ seq: 5, reason: 'content_hash_mismatch' });

    // The tamperer fixes the content hash too: the link no longer holds.
    await db.sql.run('UPDATE audit_events SET content_hash = $1 WHERE stream_id = $2 AND seq = $3', [contentHash(JSON.parse(altered)), stream.streamId, 5]);
    expect((await verify()).first_broken).toMatchObject({ seq: 5, reason: 'chain_hash_mismatch' });

    // And the link: the next event's back-link breaks.
    const [row4] = await db.sql.all<{ chain_hash: string }>('SELECT chain_hash FROM audit_events WHERE stream_id = $1 AND seq = 4', [stream.streamId]);
    await db.sql.run('UPDATE audit_events SET chain_hash = $1 WHERE stream_id = $2 AND seq = $3', [linkHash(row4?.chain_hash ?? '', contentHash(JSON.parse(altered))), stream.streamId, 5]);
    expect((await verify()).first_broken).toMatchObject({ seq: 6, reason: 'prev_hash_mismatch' });

    // A deleted event is a missing link.
    await db.sql.run('DELETE FROM audit_events WHERE stream_id = $1 AND seq = $2', [stream.streamId, 3]);
    expect((await verify()).first_broken).toMatchObject({ seq: 3, reason: 'missing_event' });
  });

  it('deletes streams that started before the retention cutoff, with their events and raw records', async () => {
    const tenant = freshTenant();
    const old = fixture('anthropic', 'simple_text', { tenant, startTs: 1_000 });
    const recent = fixture('anthropic', 'simple_text', { tenant, startTs: 5_000_000 });
    for (const stream of [old, recent]) {
      await db.repository.ingestEvents(stream.events, NOW);
      await db.repository.ingestRaw(stream.raw, NOW);
    }
    let deleted = 0;
    for (let chunk = -1; chunk !== 0; deleted += chunk) chunk = await db.repository.deleteStreamsStartedBefore(1_000_000, 1);
    expect(deleted).toBeGreaterThanOrEqual(1);
    expect(await db.repository.findStream(tenant, old.streamId)).toBeUndefined();
    expect(await db.repository.events(old.streamId)).toEqual([]);
    expect(await db.repository.rawRecords(old.streamId)).toEqual([]);
    expect((await db.repository.findStream(tenant, recent.streamId))?.record.event_count).toBe(recent.events.length);
  });

  it('keeps a captured prompt on the stream row only', async () => {
    const stream = fixture('anthropic', 'simple_text');
    const prompt = JSON.stringify({ messages: [{ role: 'user', content: 'hello' }] });
    await db.repository.ingestRaw([{ type: 'prompt', tenant: stream.tenant, streamId: stream.streamId, ts: 1_800_000_000_000, prompt, traceId: null }], NOW);
    const stored = await db.repository.findStream(stream.tenant, stream.streamId);
    expect(stored?.prompt).toBe(prompt);
    expect(stored?.record.prompt_captured).toBe(true);
    expect(await db.repository.rawRecords(stream.streamId)).toEqual([]);
  });
});
