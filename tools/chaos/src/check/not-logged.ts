import type { SeenEvent, StoredEvent } from '../recorded-run.js';
import { eventContentHash } from './event-content.js';

/** One stream's stored log as content fingerprints by seq (several when a seq was stored twice). */
export type LoggedContent = ReadonlyMap<number, ReadonlySet<string>>;

/** An event a reader received that the log does not hold: no event at its seq, or only others. */
export interface UnloggedEvent {
  readonly seq: number;
  readonly why: 'not stored' | 'stored with other content';
}

export function loggedContent(stored: readonly StoredEvent[]): LoggedContent {
  const bySeq = new Map<number, Set<string>>();
  for (const event of stored) {
    const hashes = bySeq.get(event.seq) ?? new Set<string>();
    hashes.add(eventContentHash(event));
    bySeq.set(event.seq, hashes);
  }
  return bySeq;
}

/**
 * The received events the log does not hold at the same seq with the same content. A seq stored twice with
 * different content matches either copy: the duplicate is the stored log's own finding.
 */
export function unloggedEvents(received: readonly SeenEvent[], logged: LoggedContent): UnloggedEvent[] {
  const unlogged: UnloggedEvent[] = [];
  for (const event of received) {
    const hashes = logged.get(event.seq);
    if (hashes === undefined) unlogged.push({ seq: event.seq, why: 'not stored' });
    else if (!hashes.has(event.hash)) unlogged.push({ seq: event.seq, why: 'stored with other content' });
  }
  return unlogged;
}

/** A finding's detail: how many, and the first few seqs with why. */
export function describeUnlogged(where: string, unlogged: readonly UnloggedEvent[], shown = 3): string {
  const first = unlogged.slice(0, shown).map((event) => `seq ${event.seq} ${event.why}`);
  const more = unlogged.length > shown ? `, and ${unlogged.length - shown} more` : '';
  return `${unlogged.length} event(s) at the ${where} that the log does not hold: ${first.join(', ')}${more}`;
}
