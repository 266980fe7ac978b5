import type { ContractEvent, TraceRecord } from '@llm-stream/contract';
import type { StoredRawRecord } from '../store/audit-repository.js';
import { freshCursor, type ReplayCursor } from './raw-replay-cursors.js';

/** One stored raw record and the contract events the normalizer produced when it read it. */
export interface ReplayedRecord {
  readonly stored: StoredRawRecord;
  /** Null when the stored record cannot be read back (it cannot be replayed). */
  readonly record: TraceRecord | null;
  readonly events: readonly ContractEvent[];
}

/**
 * Which events each raw record produced, recomputed at query time: the stored records are replayed, in the
 * order LLM_RAW held them, through a fresh session of the normalizer (see {@link replayPage}). Storing it at
 * ingestion would duplicate every event; the replay costs a few milliseconds per stream and also proves the stored
 * events are what the stored trace yields (see the raw route's `replay` summary).
 */
export function replayRawTrace(records: readonly StoredRawRecord[]): readonly ReplayedRecord[] {
  return replayPage(freshCursor(), records, 0, Number.POSITIVE_INFINITY).records;
}

/** One page of a trace, replayed: its records and whether stored records were left past its limit. */
export interface ReplayedPage {
  readonly records: readonly ReplayedRecord[];
  readonly more: boolean;
}

/**
 * Continues `cursor` over `records` (the records stored after its position, in LLM_RAW order) and returns those
 * after `afterJsSeq`, at most `limit`: the ones before it are replayed only to bring the session to the page's
 * start. The cursor stops at the page's last record, so the next page continues from there.
 */
export function replayPage(cursor: ReplayCursor, records: readonly StoredRawRecord[], afterJsSeq: number, limit: number): ReplayedPage {
  const page: ReplayedRecord[] = [];
  for (const stored of records) {
    if (stored.js_seq > afterJsSeq && page.length === limit) return { records: page, more: true };
    const record = toTraceRecord(stored);
    const events = record === null ? [] : cursor.session.accept(record);
    cursor.lastJsSeq = stored.js_seq;
    if (stored.js_seq > afterJsSeq) page.push({ stored, record, events });
  }
  return { records: page, more: false };
}

/** A stored raw record as the trace record the gateway wrote; null when it cannot be read back. */
export function toTraceRecord(stored: StoredRawRecord): TraceRecord | null {
  if (stored.kind === 'frame' || stored.kind === 'frame.partial') {
    const frame = { kind: 'frame', raw_seq: stored.raw_seq, ts: stored.ts, attempt: stored.attempt, text: stored.body } as const;
    return stored.kind === 'frame.partial' ? { ...frame, partial: true } : frame;
  }
  try {
    // Stored as the gateway wrote it, after a check by the contract's trace codec at ingestion.
    return JSON.parse(stored.body) as TraceRecord;
  } catch {
    return null;
  }
}
