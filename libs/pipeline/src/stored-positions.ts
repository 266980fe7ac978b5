import type { JetStreamClient } from '@nats-io/jetstream';
import { headerLookup } from './nats-headers.js';

/** Messages asked for per fetch of {@link storedPositions}. */
const BATCH = 1_024;

/** How long one fetch waits for messages; an empty subject costs one such wait. */
const FETCH_EXPIRES_MS = 2_000;

/**
 * The positions (an event's seq, a record's raw_seq: the value of `positionHeader`) that a stream holds for
 * one subject, read headers only to the subject's end (the consumer's own pending count reaching 0), so what
 * the stream's per-subject count says never bounds what is read. That count is what the publisher proves
 * storage with, and nats-server 2.9.10 was seen to get it wrong after a kill -9 (a subject it counted as
 * 1,746 messages held 1,862): a reader bounded by it missed the last 58 events, and their owner published
 * them again past the duplicate window, where they were stored twice. An empty subject costs one fetch
 * expiry ({@link FETCH_EXPIRES_MS}); callers that know it is empty skip the read.
 */
export async function storedPositions(js: JetStreamClient, streamName: string, subject: string, positionHeader: string): Promise<Set<number>> {
  const positions = new Set<number>();
  const consumer = await js.consumers.get(streamName, { filter_subjects: subject, headers_only: true });
  for (;;) {
    const messages = await consumer.fetch({ max_messages: BATCH, expires: FETCH_EXPIRES_MS });
    let read = 0;
    let atEnd = false;
    for await (const message of messages) {
      read += 1;
      const position = Number(headerLookup(message.headers)(positionHeader));
      if (Number.isSafeInteger(position) && position > 0) positions.add(position);
      if (message.info.pending === 0) {
        atEnd = true;
        break;
      }
    }
    if (atEnd || read === 0) return positions;
  }
}

/** The positions from 1 to `through` that `present` lacks, in order. */
export function missingPositions(present: ReadonlySet<number>, through: number): number[] {
  const missing: number[] = [];
  for (let position = 1; position <= through; position += 1) if (!present.has(position)) missing.push(position);
  return missing;
}
