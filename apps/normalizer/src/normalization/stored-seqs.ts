import type { JetStreamClient, JetStreamManager } from '@nats-io/jetstream';
import { headerLookup, storedMessageCount } from '@llm-stream/pipeline';
import { HEADERS, STREAM_NAMES } from '@llm-stream/contract';

/**
 * The seqs of the events a stream's subject already holds. A new owner publishes exactly the others: counting
 * is not enough, because a predecessor that died between a core publish JetStream dropped and its repair left
 * a hole below its last stored event (and past the duplicate window a republish can even be stored twice).
 * Reads headers only, once per takeover; a stream nobody published yet costs one `stream info`.
 */
export async function storedSeqs(js: JetStreamClient, jsm: JetStreamManager, subject: string): Promise<ReadonlySet<number>> {
  const seqs = new Set<number>();
  const count = await storedMessageCount(jsm, STREAM_NAMES.events, subject);
  if (count === 0) return seqs;
  const consumer = await js.consumers.get(STREAM_NAMES.events, { filter_subjects: subject, headers_only: true });
  const messages = await consumer.fetch({ max_messages: count, expires: 5_000 });
  let read = 0;
  for await (const message of messages) {
    const seq = Number(headerLookup(message.headers)(HEADERS.seq));
    if (Number.isSafeInteger(seq)) seqs.add(seq);
    read += 1;
    if (read === count) break;
  }
  if (read < count) throw new Error(`${subject}: read ${String(read)} of ${String(count)} stored events`);
  return seqs;
}
