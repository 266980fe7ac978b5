import type { JetStreamClient, JetStreamManager } from '@nats-io/jetstream';
import { storedMessageCount, storedPositions } from '@llm-stream/pipeline';
import { HEADERS, STREAM_NAMES } from '@llm-stream/contract';

/**
 * The seqs of the events a stream's subject already holds. A new owner publishes exactly the others: counting
 * is not enough, because a predecessor that died between a core publish JetStream dropped and its repair left
 * a hole below its last stored event (and past the duplicate window a republish can even be stored twice).
 * Reads headers only, to the subject's end, once per takeover (the count does not bound the read: a server
 * can count fewer than it holds, see storedPositions); a stream nobody published yet costs one `stream info`.
 */
export async function storedSeqs(js: JetStreamClient, jsm: JetStreamManager, subject: string): Promise<ReadonlySet<number>> {
  if ((await storedMessageCount(jsm, STREAM_NAMES.events, subject)) === 0) return new Set();
  return storedPositions(js, STREAM_NAMES.events, subject, HEADERS.seq);
}
