import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { STREAM_NAMES, eventsSubject, type ContractEvent } from '@llm-stream/contract';
import { startNatsServer, waitFor, type NatsServerHandle } from '@llm-stream/testing';
import { keys, ofStream, publishEvents, publishStored, range, take, waitForStored } from '../test/nats-events.js';
import { textStream, toolCallStream, words } from '../test/stream-fixtures.js';
import { LlmStreamClientError } from './client-error.js';
import { LlmStreamClient } from './llm-stream-client.js';
import { ensurePipelineStreams } from '@llm-stream/pipeline';
import type { StreamGapError } from './stream-gap-error.js';
import { StreamOutcomeCollector } from './stream-outcome-collector.js';
import type { StreamOutcome } from './stream-outcome.js';

/** Interleaves streams event by event, the way concurrent streams reach storage. */
function interleave(...streams: readonly (readonly ContractEvent[])[]): ContractEvent[] {
  const longest = Math.max(...streams.map((events) => events.length));
  return range(longest).flatMap((seq) => streams.map((events) => events[seq - 1]).filter((event) => event !== undefined));
}

describe('LlmStreamClient.tenantStreams (real nats-server)', () => {
  let server: NatsServerHandle;
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  let tenantCounter = 0;
  /** Each test reads its own tenant, so earlier tests' streams never show up in its wildcard. */
  const nextTenant = (): string => `tenant${String((tenantCounter += 1))}`;

  beforeAll(async () => {
    server = await startNatsServer();
    nc = await connect({ servers: server.url });
    jsm = await jetstreamManager(nc);
    await ensurePipelineStreams(jsm);
  });

  afterAll(async () => {
    await nc.close();
    await server.stop();
  });

  it('delivers every stream of the tenant, interleaved, each exactly once and in order, and nothing of other tenants', async () => {
    const tenant = nextTenant();
    const client = new LlmStreamClient(nc, { tenant });
    const done = toolCallStream('st_done', tenant, 'completed');
    const cut = toolCallStream('st_cut', tenant, 'interrupted');
    const text = textStream('st_text', tenant, words(12));
    const mixed = interleave(done, cut, text);
    // st_text's seq 5 is lost and republished after everything else; st_done's seq 3 is stored twice.
    await publishEvents(nc, tenant, mixed.filter((event) => !(event.stream_id === 'st_text' && event.seq === 5)));
    await publishEvents(nc, tenant, [done[2]!, text[4]!], ':again');
    await publishEvents(nc, 'other', textStream('st_other', 'other', words(2)));
    await waitForStored(jsm, tenant, 'st_text', text.length);

    const subscription = client.tenantStreams({ since: 'all' });
    const delivered = await take(subscription[Symbol.asyncIterator](), mixed.length);
    await subscription.close();
    expect(new Set(keys(delivered)).size).toBe(mixed.length);
    for (const stream of [done, cut, text]) expect(ofStream(delivered, stream[0]!.stream_id)).toEqual(range(stream.length));
    expect(subscription.stats).toMatchObject({ delivered: mixed.length, duplicates: 1, held: 0 });

    const collector = new StreamOutcomeCollector();
    const outcomes = delivered.map((event) => collector.push(event)).filter((outcome): outcome is StreamOutcome => outcome !== undefined);
    const byStream = new Map(outcomes.map((outcome) => [outcome.streamId, outcome]));
    expect(byStream.get('st_done')?.toolCalls.map((call) => call.name)).toEqual(['get_schedule']);
    expect(byStream.get('st_cut')?.toolCalls).toEqual([]);
    expect(byStream.get('st_cut')?.unexecutableToolCalls.map((call) => call.reason)).toEqual(['stream_interrupted']);
    expect(byStream.get('st_text')?.text).toBe(words(12).join(''));
  });

  it("since 'new' delivers only what is stored after the start, joining a running stream mid-way", async () => {
    const tenant = nextTenant();
    const client = new LlmStreamClient(nc, { tenant, gapTimeoutMs: 200 });
    const before = textStream('st_before', tenant, words(2));
    const running = textStream('st_running', tenant, words(4));
    const after = textStream('st_after', tenant, words(2));
    await publishStored(nc, jsm, tenant, before);
    await publishStored(nc, jsm, tenant, running.slice(0, 3));

    const subscription = client.tenantStreams({ since: 'new' });
    const iterator = subscription[Symbol.asyncIterator]();
    const first = iterator.next();
    await subscription.started();
    await publishEvents(nc, tenant, interleave(running.slice(3), after));
    const delivered = [(await first).value as ContractEvent, ...(await take(iterator, running.length - 3 + after.length - 1))];
    await subscription.close();
    expect(ofStream(delivered, 'st_before')).toEqual([]);
    expect(ofStream(delivered, 'st_running')).toEqual(range(running.length).slice(3));
    expect(ofStream(delivered, 'st_after')).toEqual(range(after.length));
    expect(subscription.stats.joinedMidStream).toBe(1);
  });

  it('since a Date delivers the events stored from that time on', async () => {
    const tenant = nextTenant();
    const client = new LlmStreamClient(nc, { tenant });
    const earlier = textStream('st_earlier', tenant, words(1));
    const later = textStream('st_later', tenant, words(1));
    await publishStored(nc, jsm, tenant, earlier);
    // Just after the last earlier event's server time (ns) in whole ms, and the later ones stored after it.
    const last = await jsm.streams.getMessage(STREAM_NAMES.events, { last_by_subj: eventsSubject(tenant, 'st_earlier') });
    const since = new Date(Math.floor(Date.parse(last!.timestamp)) + 1);
    await waitFor(() => Date.now() > since.getTime() + 1, { description: 'the clock to pass the start time' });
    await publishStored(nc, jsm, tenant, later);
    const subscription = client.tenantStreams({ since });
    const delivered = await take(subscription[Symbol.asyncIterator](), later.length);
    await subscription.close();
    expect(delivered).toEqual(later);
  });

  it('throws a gap that never fills, or gives it up through onGap and goes on', async () => {
    const tenant = nextTenant();
    const gappy = textStream('st_gappy', tenant, words(3));
    await publishStored(nc, jsm, tenant, gappy.filter((event) => event.seq !== 3));

    const strict = new LlmStreamClient(nc, { tenant, gapTimeoutMs: 200 });
    const strictRun = strict.tenantStreams({ since: 'all' });
    const failure: unknown = await take(strictRun[Symbol.asyncIterator](), gappy.length).catch((error: unknown) => error);
    expect(failure).toMatchObject({ name: 'StreamGapError', streamId: 'st_gappy', expectedSeq: 3 });
    await strict.close();

    const gaps: StreamGapError[] = [];
    const lenient = new LlmStreamClient(nc, { tenant, gapTimeoutMs: 200 });
    const subscription = lenient.tenantStreams({ since: 'all', onGap: (gap) => gaps.push(gap) });
    const delivered = await take(subscription[Symbol.asyncIterator](), gappy.length - 1);
    await subscription.close();
    expect(ofStream(delivered, 'st_gappy')).toEqual(range(gappy.length).filter((seq) => seq !== 3));
    expect(gaps.map((gap) => [gap.code, gap.expectedSeq])).toEqual([['gap_timeout', 3]]);
    expect(subscription.stats.gapsSkipped).toBe(1);
  });

  it('client.close() ends every iteration of the client', async () => {
    const tenant = nextTenant();
    const client = new LlmStreamClient(nc, { tenant });
    const subscriptions = [client.tenantStreams(), client.tenantStreams({ since: 'all' })];
    const iterators = subscriptions.map((subscription) => subscription[Symbol.asyncIterator]());
    const waiting = iterators.map((iterator) => iterator.next());
    await client.close();
    expect(await Promise.all(waiting)).toEqual([
      { done: true, value: undefined },
      { done: true, value: undefined },
    ]);
    expect(() => client.tenantStreams()).toThrow(LlmStreamClientError);
  });
});
