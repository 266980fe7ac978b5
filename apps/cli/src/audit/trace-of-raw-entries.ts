import type { TraceRecord } from '@llm-stream/contract';
import type { AuditRawEntry } from './audit-api-types.js';

const isFrame = (entry: AuditRawEntry): boolean => entry.kind === 'frame' || entry.kind === 'frame.partial';

/**
 * The trace records of a raw route's entries, in stored order: a frame from its text, another record from
 * the record the route returns (null when the audit log could not read it back: it replays to nothing).
 */
export function traceOfRawEntries(entries: readonly AuditRawEntry[]): (TraceRecord | null)[] {
  return entries.map((entry): TraceRecord | null => {
    if (!isFrame(entry)) return entry.record ?? null;
    const frame = { kind: 'frame', raw_seq: entry.raw_seq, ts: entry.ts, attempt: entry.attempt ?? 0, text: entry.text ?? '' } as const;
    return entry.kind === 'frame.partial' ? { ...frame, partial: true } : frame;
  });
}
