import { createHash } from 'node:crypto';
import type { ChainBreak, ChainBreakReason } from '@llm-stream/contract';
import { canonicalJson } from './canonical-json.js';

/**
 * Tamper evidence for each stream's events. Every stored event keeps three hashes (lowercase hex SHA-256):
 *
 * - `content_hash = SHA-256(canonicalJson(event))` (RFC 8785, see canonical-json.ts);
 * - `prev_hash`: the `chain_hash` of the event before it, {@link CHAIN_GENESIS} for seq 1;
 * - `chain_hash = SHA-256(prev_hash + content_hash)`, over the 128 ASCII hex digits.
 *
 * The stream row keeps the head (`chain_seq`, `chain_hash` of its last linked event). Changing an event's
 * content breaks its content hash; recomputing that too breaks its link; recomputing the link breaks the next
 * event's `prev_hash`; rewriting the whole tail changes the head. (Whoever can rewrite the head as well can
 * rewrite everything: anchoring heads outside the database is what would close that gap.)
 */
export const CHAIN_GENESIS = '0'.repeat(64);

function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The content hash of an event (any JSON value): independent of key order and spacing. */
export function contentHash(event: unknown): string {
  return sha256Hex(canonicalJson(event));
}

/** The link of an event to the one before it. */
export function linkHash(prevHash: string, content: string): string {
  return sha256Hex(prevHash + content);
}

/** One stored event as the verifier reads it. `prev_hash`/`chain_hash` are null until the event is linked. */
export interface ChainRow {
  readonly seq: number;
  readonly body: string;
  readonly content_hash: string;
  readonly prev_hash: string | null;
  readonly chain_hash: string | null;
}

/** What the stream row says the chain ends with. */
export interface ChainHead {
  readonly seq: number;
  readonly hash: string;
}

export interface ChainReport {
  readonly ok: boolean;
  /** Events whose links were recomputed and hold, from seq 1. */
  readonly verified: number;
  /** The last verified link (the genesis value when none). */
  readonly head: string;
  readonly first_broken: ChainBreak | null;
}

/**
 * Recomputes a stream's chain from its stored events (in seq order) and reports the first broken link.
 * Pure: reads nothing but its arguments.
 */
export function verifyChain(rows: readonly ChainRow[], head: ChainHead): ChainReport {
  let previous = CHAIN_GENESIS;
  let verified = 0;
  const broken = (seq: number, reason: ChainBreakReason, message: string): ChainReport => ({
    ok: false,
    verified,
    head: previous,
    first_broken: { seq, reason, message },
  });
  for (const row of rows) {
    const expectedSeq = verified + 1;
    if (row.seq !== expectedSeq) return broken(expectedSeq, 'missing_event', `no stored event with seq ${expectedSeq}`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(row.body);
    } catch {
      return broken(row.seq, 'unreadable_body', `the stored event ${row.seq} is not JSON`);
    }
    const content = contentHash(parsed);
    if (content !== row.content_hash) {
      return broken(row.seq, 'content_hash_mismatch', `the content of event ${row.seq} does not match its stored content hash`);
    }
    if (row.prev_hash === null || row.chain_hash === null) {
      return broken(row.seq, 'unlinked_event', `event ${row.seq} is stored but not linked to event ${row.seq - 1}`);
    }
    if (row.prev_hash !== previous) {
      return broken(row.seq, 'prev_hash_mismatch', `event ${row.seq} does not link to the stored event ${row.seq - 1}`);
    }
    const link = linkHash(previous, content);
    if (link !== row.chain_hash) {
      return broken(row.seq, 'chain_hash_mismatch', `the link hash of event ${row.seq} does not match its content and predecessor`);
    }
    previous = link;
    verified += 1;
  }
  if (head.seq > verified) return broken(verified + 1, 'missing_event', `the chain head is at seq ${head.seq} but event ${verified + 1} is not stored`);
  if (head.seq < verified || head.hash !== previous) {
    return broken(head.seq, 'head_mismatch', `the stream's chain head (seq ${head.seq}) does not match the stored events`);
  }
  return { ok: true, verified, head: previous, first_broken: null };
}
