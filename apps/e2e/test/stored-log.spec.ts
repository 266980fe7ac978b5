import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { jetstream } from '@nats-io/jetstream';
import { normalizeTranscript } from '@llm-stream/adapters';
import { encodeEventMessage, headerLookup, storedMessageCount, toNatsHeaders } from '@llm-stream/pipeline';
import {
  HEADERS,
  STREAM_NAMES,
  encodeTraceRecord,
  encodeWorkItem,
  eventsSubject,
  rawMsgId,
  rawSubject,
  workSubject,
  type ContractEvent,
  type TraceRecord,
} from '@llm-stream/contract';
import { transcriptsDir, waitFor } from '@llm-stream/testing';
import { sequenceProblems } from './support/event-checks.js';
import { startPipeline, type Pipeline } from './support/pipeline.js';

/**
 * Raw traces and event logs written by hand, as JetStream can store them after a dropped core publish: the
 * normalizer must still produce every event exactly once, in seq.
 */
describe('the normalizer reading what JetStream stored', () => {
  let pipeline: Pipeline;

  beforeAll(async () => {
    pipeline = await startPipeline();
  });

  afterAll(async () => {
    await pipeline.stop();
  });

  /** Publishes a transcript's raw trace (records in the given stored order); returns the in-process events. */
  async function storeTrace(
    streamId: string,
    caseName: string,
    order: (records: TraceRecord[]) => TraceRecord[],
  ): Promise<ContractEvent[]> {
    const bytes = readFileSync(join(transcriptsDir(), 'anthropic', `${caseName}.sse`));
    const { records, events } = normalizeTranscript('anthropic', bytes, { streamId, tenant: 'acme', model: caseName });
    const identity = { stream_id: streamId, tenant: 'acme', provider: 'anthropic', model: caseName } as const;
    const js = jetstream(pipeline.nc);
    for (const record of order(records)) {
      const encoded = encodeTraceRecord(record, identity);
      await js.publish(rawSubject('acme', streamId), encoded.data, {
        msgID: rawMsgId(streamId, record.raw_seq),
        headers: toNatsHeaders(encoded.headers),
      });
    }
    return events;
  }

  /** The work item that makes a normalizer own the stream. */
  async function storeWorkItem(streamId: string, caseName: string): Promise<void> {
    const item = { stream_id: streamId, tenant: 'acme', provider: 'anthropic', model: caseName, gateway_id: 'gw-e2e-ghost' } as const;
    await jetstream(pipeline.nc).publish(workSubject('acme', streamId), encodeWorkItem(item), { msgID: `${streamId}:work` });
  }

  it('processes raw records in raw_seq order when one was stored last (the gateway republished it at the end)', async () => {
    const streamId = 'st_E2ELATE0000000000000000001';
    const late = 7; // the first non-empty input_json_delta
    const events = await storeTrace(streamId, 'tool_fragmented_json', (records) => [
      ...records.filter((record) => record.raw_seq !== late),
      records.find((record) => record.raw_seq === late)!,
    ]);
    await storeWorkItem(streamId, 'tool_fragmented_json');
    const onNats = await pipeline.acmeEvents.waitForTerminal(streamId);
    expect(onNats).toStrictEqual(events);
    expect(sequenceProblems(onNats)).toStrictEqual([]);
  });

  it('stores the events a dead predecessor left out (a core publish JetStream dropped before its repair)', async () => {
    const streamId = 'st_E2EHOLE0000000000000000001';
    const events = await storeTrace(streamId, 'multi_block', (records) => records);
    expect(events.length).toBeGreaterThan(10);
    // What the predecessor stored before it died: events 1 to 9 but 5.
    const js = jetstream(pipeline.nc);
    for (const event of events.slice(0, 9).filter((stored) => stored.seq !== 5)) {
      const message = encodeEventMessage(event, 'acme');
      await js.publish(message.subject, message.data, { msgID: message.msgId, headers: toNatsHeaders(message.headers) });
    }
    await storeWorkItem(streamId, 'multi_block');

    const subject = eventsSubject('acme', streamId);
    await pipeline.acmeEvents.waitForTerminal(streamId);
    await waitFor(async () => (await storedMessageCount(pipeline.jsm, STREAM_NAMES.events, subject)) === events.length, {
      description: 'every event to be stored',
    });
    await waitFor(async () => (await pipeline.jsm.streams.info(STREAM_NAMES.work)).state.messages === 0, {
      description: 'the work item to be acked',
    });
    // Every seq stored exactly once (the late 5 after 9); a backend reads them all.
    const consumer = await js.consumers.get(STREAM_NAMES.events, { filter_subjects: subject, headers_only: true });
    const stored: number[] = [];
    for (let n = 0; n < events.length; n += 1)
      stored.push(Number(headerLookup((await consumer.next({ expires: 2_000 }))?.headers)(HEADERS.seq)));
    expect(stored.sort((a, b) => a - b)).toStrictEqual(events.map((event) => event.seq));
    const onNats = [...pipeline.acmeEvents.events(streamId)].sort((a, b) => a.seq - b.seq);
    expect(onNats).toStrictEqual(events);
  });
});
