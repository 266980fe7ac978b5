import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { ContractEvent } from '@llm-stream/contract';
import { startNatsServer, type NatsServerHandle } from '@llm-stream/testing';
import { collect, publishEvents, publishRaw, publishStored, range, take, waitForStored } from '../test/nats-events.js';
import { textStream, toolCallStream, words } from '../test/stream-fixtures.js';
import { LlmStreamClientError } from './client-error.js';
import { LlmStreamClient } from './llm-stream-client.js';
import { ensurePipelineStreams } from '@llm-stream/pipeline';
import type { InvalidEventReport } from './subscription-reports.js';

const TENANT = 'acme';

/** The `code` of what `action` throws. */
function thrownCode(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return (error as { code?: unknown }).code;
  }
  return 'nothing thrown';
}

describe('LlmStreamClient.stream and result (real nats-server)', () => {
  let server: NatsServerHandle;
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  let client: LlmStreamClient;
  let streamCounter = 0;
  const nextStreamId = (): string => `st_one_${String((streamCounter += 1))}`;

  beforeAll(async () => {
    server = await startNatsServer();
    nc = await connect({ servers: server.url });
    jsm = await jetstreamManager(nc);
    await ensurePipelineStreams(jsm);
    client = new LlmStreamClient(nc, { tenant: TENANT, gapTimeoutMs: 300 });
  });

  afterAll(async () => {
    await client.close();
    await nc.close();
    await server.stop();
  });

  it('delivers a stored stream in seq order and ends after its terminal event', async () => {
    const events = textStream(nextStreamId(), TENANT, words(20));
    await publishStored(nc, jsm, TENANT, events);
    expect(await collect(client.stream(events[0]!.stream_id))).toEqual(events);
  });

  it('waits for a stream that has not started yet', async () => {
    const events = textStream(nextStreamId(), TENANT, words(3));
    const subscription = client.stream(events[0]!.stream_id);
    const iterator = subscription[Symbol.asyncIterator]();
    const first = iterator.next();
    await publishEvents(nc, TENANT, events);
    expect([(await first).value, ...(await collect({ [Symbol.asyncIterator]: () => iterator }))]).toEqual(events);
  });

  it('resumes after afterSeq, and ends at once for a reader already past the end', async () => {
    const events = textStream(nextStreamId(), TENANT, words(6));
    await publishStored(nc, jsm, TENANT, events);
    const streamId = events[0]!.stream_id;
    expect(await collect(client.stream(streamId, { afterSeq: 5 }))).toEqual(events.slice(5));
    expect(await collect(client.stream(streamId, { afterSeq: events.length }))).toEqual([]);
  });

  it('holds a republished event stored out of order and drops stored duplicates (storage: 1 2 2\' 4 5 3 5\' 6 7 8)', async () => {
    const events = textStream(nextStreamId(), TENANT, words(4));
    const at = (seq: number): ContractEvent[] => [events[seq - 1]!];
    await publishEvents(nc, TENANT, [...at(1), ...at(2)]);
    await publishEvents(nc, TENANT, at(2), ':again');
    await publishEvents(nc, TENANT, [...at(4), ...at(5), ...at(3)]);
    await publishEvents(nc, TENANT, at(5), ':again');
    await publishEvents(nc, TENANT, events.slice(5));
    await waitForStored(jsm, TENANT, events[0]!.stream_id, 10);
    const subscription = client.stream(events[0]!.stream_id);
    expect(await collect(subscription)).toEqual(events);
    expect(subscription.stats).toMatchObject({ delivered: 8, duplicates: 2, invalid: 0, held: 0 });
  });

  it('fails with a typed error when a gap never fills', async () => {
    const events = textStream(nextStreamId(), TENANT, words(4));
    await publishStored(nc, jsm, TENANT, [events[0]!, events[1]!, events[3]!]);
    const iterator = client.stream(events[0]!.stream_id)[Symbol.asyncIterator]();
    expect(await take(iterator, 2)).toEqual(events.slice(0, 2));
    const failure: unknown = await iterator.next().catch((error: unknown) => error);
    expect(failure).toMatchObject({ name: 'StreamGapError', code: 'gap_timeout', expectedSeq: 3, heldSeqs: [4] });
  });

  it('fails with a typed error when the hold buffer fills before the gap does', async () => {
    const small = new LlmStreamClient(nc, { tenant: TENANT, maxHeldEvents: 2, gapTimeoutMs: 60_000 });
    const events = textStream(nextStreamId(), TENANT, words(4));
    await publishStored(nc, jsm, TENANT, [events[0]!, ...events.slice(2, 5)]);
    await expect(collect(small.stream(events[0]!.stream_id))).rejects.toMatchObject({ code: 'buffer_full', expectedSeq: 2 });
  });

  it('skips invalid messages, reports each one, and delivers the valid events around them', async () => {
    const reports: InvalidEventReport[] = [];
    const reporting = new LlmStreamClient(nc, { tenant: TENANT, onInvalid: (report) => reports.push(report) });
    const events = textStream(nextStreamId(), TENANT, words(3));
    const streamId = events[0]!.stream_id;
    await publishEvents(nc, TENANT, events.slice(0, 2));
    await publishRaw(nc, TENANT, streamId, '{"type":"block.delta",');
    await publishRaw(nc, TENANT, streamId, JSON.stringify({ ...events[2], seq: 'three' }));
    await publishRaw(nc, TENANT, streamId, JSON.stringify({ ...events[2], stream_id: 'st_elsewhere' }));
    await publishEvents(nc, TENANT, events.slice(2));
    const subscription = reporting.stream(streamId);
    expect(await collect(subscription)).toEqual(events);
    expect(reports.map((report) => report.code)).toEqual(['invalid_json', 'schema_violation', 'stream_mismatch']);
    expect(reports[0]).toMatchObject({ subject: `llm.events.${TENANT}.${streamId}`, streamSequence: expect.any(Number) });
    expect(subscription.stats.invalid).toBe(3);
  });

  it('with validate: false, passes events the schema would refuse but still refuses what breaks ordering', async () => {
    const reports: InvalidEventReport[] = [];
    const trusting = new LlmStreamClient(nc, { tenant: TENANT, validate: false, onInvalid: (report) => reports.push(report) });
    const events = textStream(nextStreamId(), TENANT, words(1));
    const streamId = events[0]!.stream_id;
    const odd = { ...events[1], future_field: true } as unknown as ContractEvent;
    await publishEvents(nc, TENANT, [events[0]!, odd]);
    await publishRaw(nc, TENANT, streamId, 'null');
    await publishRaw(nc, TENANT, streamId, JSON.stringify({ ...events[2], seq: 2.5 }));
    await publishEvents(nc, TENANT, events.slice(2));
    expect(await collect(trusting.stream(streamId))).toEqual([events[0], odd, ...events.slice(2)]);
    expect(reports.map((report) => report.code)).toEqual(['schema_violation', 'invalid_seq']);
  });

  it('result(): hands out the tool call of a completed stream', async () => {
    const events = toolCallStream(nextStreamId(), TENANT, 'completed');
    await publishStored(nc, jsm, TENANT, events);
    const outcome = await client.result(events[0]!.stream_id);
    expect(outcome).toMatchObject({ status: 'completed', stopReason: 'tool_use', text: 'Checking the schedule.' });
    expect(outcome.unexecutableToolCalls).toEqual([]);
    expect(outcome.toolCalls).toEqual([{ index: 1, name: 'get_schedule', callId: 'toolu_01', arguments: { date: '2026-07-23' } }]);
  });

  it('result(): reports, and never hands out, a tool call whose block closed before the stream was cut', async () => {
    const events = toolCallStream(nextStreamId(), TENANT, 'interrupted');
    await publishStored(nc, jsm, TENANT, events);
    const outcome = await client.result(events[0]!.stream_id);
    expect(outcome.status).toBe('interrupted');
    expect(outcome.toolCalls).toEqual([]);
    expect(outcome.unexecutableToolCalls).toEqual([
      {
        index: 1,
        name: 'get_schedule',
        callId: 'toolu_01',
        rawArguments: '{"date":"2026-07-23"}',
        closed: true,
        reason: 'stream_interrupted',
      },
    ]);
  });

  it('result(): rejects when aborted before the stream ended', async () => {
    const events = textStream(nextStreamId(), TENANT, words(2));
    await publishStored(nc, jsm, TENANT, events.slice(0, 3));
    const controller = new AbortController();
    const outcome = client.result(events[0]!.stream_id, { signal: controller.signal });
    controller.abort(new Error('backend shutting down'));
    await expect(outcome).rejects.toThrow('backend shutting down');
  });

  it('close() ends an iteration that waits for more events, without an error', async () => {
    const events = textStream(nextStreamId(), TENANT, words(2));
    await publishStored(nc, jsm, TENANT, events.slice(0, 2));
    const subscription = client.stream(events[0]!.stream_id);
    const iterator = subscription[Symbol.asyncIterator]();
    expect(await take(iterator, 2)).toEqual(events.slice(0, 2));
    const waiting = iterator.next();
    await subscription.close();
    expect(await waiting).toEqual({ done: true, value: undefined });
  });

  it('refuses programmer errors with typed errors', () => {
    expect(() => new LlmStreamClient(nc, { tenant: 'a.b' })).toThrow(LlmStreamClientError);
    expect(thrownCode(() => client.stream('st bad'))).toBe('invalid_argument');
    expect(thrownCode(() => client.stream('st_x', { afterSeq: -1 }))).toBe('invalid_argument');
    const subscription = client.stream('st_twice');
    subscription[Symbol.asyncIterator]();
    expect(thrownCode(() => subscription[Symbol.asyncIterator]())).toBe('already_iterated');
    void subscription.close();
  });

  it('keeps seq order over a long stream', async () => {
    const events = textStream(nextStreamId(), TENANT, words(2_000));
    await publishStored(nc, jsm, TENANT, events);
    expect((await collect(client.stream(events[0]!.stream_id))).map((event) => event.seq)).toEqual(range(events.length));
  });
});
