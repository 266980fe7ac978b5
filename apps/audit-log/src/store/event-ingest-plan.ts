import type { ContractEvent } from '@llm-stream/contract';
import { contentHash, linkHash } from '../chain/hash-chain.js';
import type { IncomingEvent } from './audit-repository.js';
import type { EventLink, EventRow } from './sql-backend.js';

/** An event of the stream stored earlier but not linked yet (it arrived after a gap). */
export interface UnlinkedEvent {
  readonly seq: number;
  readonly content_hash: string;
}

export interface StreamEventPlan {
  /** New rows, linked where the chain reaches them. */
  readonly inserts: readonly EventRow[];
  /** Earlier unlinked rows that this batch's events connect to the chain. */
  readonly links: readonly EventLink[];
  /** The chain head after the batch. */
  readonly head: { readonly seq: number; readonly hash: string };
  /** The new events in seq order (what the stream row is updated from). */
  readonly fresh: readonly IncomingEvent[];
  /** Events already stored, or repeated within the batch. */
  readonly duplicates: number;
}

/**
 * Plans one stream's part of a batch. Pure.
 *
 * JetStream delivers a stream's events in seq order, but a redelivery (after a crash, an outage, an expired
 * ack wait) can bring event n after n+1 was stored. So the chain is extended only over consecutive seqs from
 * the stored head; an event beyond a gap is stored unlinked (prev/chain hash null) and linked by the batch
 * that fills the gap. Events at or below the head, already stored unlinked, or repeated in the batch are
 * duplicates: redelivery never creates a second row.
 */
export function planStreamEvents(
  streamId: string,
  head: { readonly seq: number; readonly hash: string },
  unlinked: readonly UnlinkedEvent[],
  incoming: readonly IncomingEvent[],
): StreamEventPlan {
  const storedUnlinked = new Map(unlinked.map((row) => [row.seq, row.content_hash]));
  const fresh = new Map<number, { incoming: IncomingEvent; hash: string }>();
  let duplicates = 0;
  for (const item of incoming) {
    const { seq } = item.event;
    if (seq <= head.seq || storedUnlinked.has(seq) || fresh.has(seq)) {
      duplicates += 1;
      continue;
    }
    fresh.set(seq, { incoming: item, hash: contentHash(item.event) });
  }

  const linked = new Map<number, { prev: string; chain: string }>();
  let seq = head.seq;
  let hash = head.hash;
  for (;;) {
    const next = seq + 1;
    const content = fresh.get(next)?.hash ?? storedUnlinked.get(next);
    if (content === undefined) break;
    const chain = linkHash(hash, content);
    linked.set(next, { prev: hash, chain });
    seq = next;
    hash = chain;
  }

  const ordered = [...fresh.entries()].sort(([a], [b]) => a - b);
  const inserts = ordered.map(([eventSeq, { incoming: item, hash: content }]): EventRow => {
    const link = linked.get(eventSeq);
    return {
      stream_id: streamId,
      seq: eventSeq,
      type: item.event.type,
      ts: item.event.ts,
      js_time: item.jsTime,
      body: item.body,
      content_hash: content,
      prev_hash: link?.prev ?? null,
      chain_hash: link?.chain ?? null,
      unknown_type: unknownTypeOf(item.event),
    };
  });
  const links = unlinked
    .flatMap((row): EventLink[] => {
      const link = linked.get(row.seq);
      return link === undefined ? [] : [{ stream_id: streamId, seq: row.seq, prev_hash: link.prev, chain_hash: link.chain }];
    });
  return { inserts, links, head: { seq, hash }, fresh: ordered.map(([, { incoming: item }]) => item), duplicates };
}

/** The provider event or part type of an unknown-event warning, else null. */
export function unknownTypeOf(event: ContractEvent): string | null {
  if (event.type !== 'stream.warning') return null;
  const { warning } = event;
  if (warning.code !== 'unknown_event' && warning.code !== 'unknown_part') return null;
  return warning.provider_event_type ?? warning.code;
}
