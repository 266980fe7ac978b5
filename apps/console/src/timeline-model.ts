import type { ContractEvent } from '@llm-stream/contract';

/** One mark on the timeline: a raw record's arrival, an event's production, or an event's storage in JetStream. */
export interface TimelineMark {
  readonly at: number;
  readonly lane: 'frame' | 'event' | 'stored';
  /** What the mark is (`frame`, `block.delta`, `stream.heartbeat`...). */
  readonly kind: string;
  readonly label: string;
}

/** A silence between two consecutive marks of the frame lane longer than the gap threshold. */
export interface TimelineGap {
  readonly from: number;
  readonly to: number;
}

export interface TimelineModel {
  readonly start: number;
  readonly end: number;
  readonly marks: readonly TimelineMark[];
  readonly gaps: readonly TimelineGap[];
  readonly heartbeats: number;
  /** From the stream's first record to its first block.delta; null when none arrived. */
  readonly timeToFirstDeltaMs: number | null;
  /** The largest delay from an event's production (ts) to its storage in JetStream (js_time). */
  readonly maxStoreDelayMs: number | null;
}

export interface TimelineInput {
  readonly startedAt: number;
  readonly records: readonly { readonly raw_seq: number; readonly kind: string; readonly ts: number }[];
  readonly events: readonly ContractEvent[];
  readonly times: readonly { readonly seq: number; readonly ts: number; readonly js_time: number | null }[];
}

/** A gap is a silence of at least this share of the stream's duration, and at least 250 ms. */
const GAP_SHARE = 0.1;
const MIN_GAP_MS = 250;

/** The timeline of a stream: pure, so that a 5,000-event stream is one pass over its records and events. */
export function timelineModel(input: TimelineInput): TimelineModel {
  const marks: TimelineMark[] = [];
  for (const record of input.records) marks.push({ at: record.ts, lane: 'frame', kind: record.kind, label: `raw ${String(record.raw_seq)} ${record.kind}` });
  for (const event of input.events) marks.push({ at: event.ts, lane: 'event', kind: event.type, label: `#${String(event.seq)} ${event.type}` });
  let maxStoreDelayMs: number | null = null;
  for (const time of input.times) {
    if (time.js_time === null) continue;
    marks.push({ at: time.js_time, lane: 'stored', kind: 'stored', label: `#${String(time.seq)} stored` });
    maxStoreDelayMs = Math.max(maxStoreDelayMs ?? 0, time.js_time - time.ts);
  }
  const times = marks.map((mark) => mark.at);
  const start = Math.min(input.startedAt, ...times);
  const end = Math.max(start + 1, ...times);
  const arrivals = input.records.map((record) => record.ts).sort((a, b) => a - b);
  const threshold = Math.max(MIN_GAP_MS, (end - start) * GAP_SHARE);
  const gaps: TimelineGap[] = [];
  for (let index = 1; index < arrivals.length; index += 1) {
    const from = arrivals[index - 1] ?? 0;
    const to = arrivals[index] ?? 0;
    if (to - from >= threshold) gaps.push({ from, to });
  }
  const firstDelta = input.events.find((event) => event.type === 'block.delta');
  return {
    start,
    end,
    marks,
    gaps,
    heartbeats: input.events.filter((event) => event.type === 'stream.heartbeat').length + input.records.filter((record) => record.kind.includes('heartbeat')).length,
    timeToFirstDeltaMs: firstDelta === undefined ? null : firstDelta.ts - start,
    maxStoreDelayMs,
  };
}
