import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { jetstream } from '@nats-io/jetstream';
import { normalizeTranscript } from '@llm-stream/adapters';
import { encodeEventMessage, headerLookup, storedMessageCount, toNatsHeaders } from '@llm-stream/client';
import {
  STREAM_NAMES,
  encodeTraceRecord,
  encodeWorkItem,
  eventsSubject,
  rawMsgId,
  rawSubject,
  workSubject,
  HEADERS,
} from '@llm-stream/contract';
import { transcriptsDir, waitFor } from '@llm-stream/testing';
import { sequenceProblems } from './support/event-checks.js';
import { startPipeline, type Pipeline } from './support/pipeline.js';

describe('a normalizer that takes over a stream', () => {
  let pipeline: Pipeline;

  beforeAll(async () => {
    pipeline = await startPipeline();
  });

  afterAll(async () => {
    await pipeline.stop();
  });

  it('stores the events its predecessor left out (a core publish JetStream dropped before the predecessor died)', async () => {
    const js = jetstream(pipeline.nc);
    const streamId = 'st_E2EHOLE0000000000000000001';
    const identity = { stream_id: streamId, tenant: 'acme', provider: 'anthropic', model: 'multi_block' } as const;
    const { records, events } = normalizeTranscript('anthropic', readFileSync(join(transcriptsDir(), 'anthropic', 'multi_block.sse')), {
      streamId,
      tenant: 'acme',
      model: 'multi_block',
    });
    expect(events.length).toBeGreaterThan(10);
    // The gateway's complete raw trace.
    for (const record of records) {
      const encoded = encodeTraceRecord(record, identity);
      await js.publish(rawSubject('acme', streamId), encoded.data, {
        msgID: rawMsgId(streamId, record.raw_seq),
        headers: toNatsHeaders(encoded.headers),
      });
    }
    // What a predecessor stored before it died: events 1 to 9 but 5, which JetStream dropped.
    for (const event of events.slice(0, 9).filter((stored) => stored.seq !== 5)) {
      const message = encodeEventMessage(event, 'acme');
      await js.publish(message.subject, message.data, { msgID: message.msgId, headers: toNatsHeaders(message.headers) });
    }
    await js.publish(workSubject('acme', streamId), encodeWorkItem({ ...identity, gateway_id: 'gw-e2e-ghost' }), {
      msgID: `${streamId}:work`,
    });

    const onNats = await pipeline.acmeEvents.waitForTerminal(streamId);
    await waitFor(
      async () => (await storedMessageCount(pipeline.jsm, STREAM_NAMES.events, eventsSubject('acme', streamId))) === events.length,
      {
        description: 'every event to be stored',
      },
    );
    // The backend reads the stored log: every seq once (in stored order, the late 5 after 9).
    expect(onNats.map((event) => event.seq).sort((a, b) => a - b)).toStrictEqual(events.map((event) => event.seq));
    expect(sequenceProblems([...onNats].sort((a, b) => a.seq - b.seq))).toStrictEqual([]);
    // The work item is acked: the stream is finished for the pipeline.
    await waitFor(async () => (await pipeline.jsm.streams.info(STREAM_NAMES.work)).state.messages === 0, {
      description: 'the work item to be acked',
    });
    const consumer = await js.consumers.get(STREAM_NAMES.events, { filter_subjects: eventsSubject('acme', streamId), headers_only: true });
    const seqs: string[] = [];
    for (let n = 0; n < events.length; n += 1)
      seqs.push(headerLookup((await consumer.next({ expires: 2_000 }))?.headers)(HEADERS.seq) ?? 'none');
    expect(seqs.map(Number).sort((a, b) => a - b)).toStrictEqual(events.map((event) => event.seq));
  });
});
