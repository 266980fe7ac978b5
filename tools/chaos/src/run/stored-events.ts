import { jetstream } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { StoredEvent } from '../recorded-run.js';

/**
 * Every message LLM_EVENTS holds, read raw at the end of the run (an ordered consumer over the whole stream,
 * payload parsed as plain JSON), grouped by stream id in stored order, duplicates kept.
 */
export async function readStoredEvents(connectChecker: () => Promise<NatsConnection>): Promise<Map<string, StoredEvent[]>> {
  const nc = await connectChecker();
  const byStream = new Map<string, StoredEvent[]>();
  try {
    const js = jetstream(nc);
    const info = await (await js.streams.get('LLM_EVENTS')).info();
    if (info.state.messages === 0) return byStream;
    // The stream captures exactly llm.events.>: no filter (nats-server 2.9 has no filter_subjects).
    const consumer = await js.consumers.get('LLM_EVENTS');
    const messages = await consumer.consume({ max_messages: 1_000 });
    for await (const message of messages) {
      const event = JSON.parse(message.string()) as StoredEvent & { stream_id: string };
      const list = byStream.get(event.stream_id) ?? [];
      list.push(event);
      byStream.set(event.stream_id, list);
      if (message.info.pending === 0) break;
    }
    await messages.close();
  } finally {
    await nc.close();
  }
  return byStream;
}
