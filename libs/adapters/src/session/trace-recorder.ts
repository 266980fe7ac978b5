import type { FrameRecord, TraceRecord } from '@llm-stream/contract';
import type { SseFrame } from '../sse/sse-frame.js';

/** A trace record before it is stamped with its place in the trace and its receive time. */
export type UnstampedRecord = TraceRecord extends infer R ? (R extends TraceRecord ? Omit<R, 'raw_seq' | 'ts'> : never) : never;

/**
 * Numbers a stream's trace records (`raw_seq` 1, 2, ... across attempts) and stamps their receive time.
 * The gateway records what it sees through one recorder per stream; the CLI does the same for a file.
 */
export class TraceRecorder {
  private rawSeq = 0;

  constructor(private readonly clock: () => number) {}

  /** The raw_seq of the last record stamped. */
  get lastRawSeq(): number {
    return this.rawSeq;
  }

  stamp(record: UnstampedRecord): TraceRecord {
    this.rawSeq += 1;
    return { ...record, raw_seq: this.rawSeq, ts: this.clock() };
  }

  /** The record of one decoded SSE frame: the hot path, built as one literal rather than by spreading. */
  frame(attempt: number, frame: SseFrame): FrameRecord {
    this.rawSeq += 1;
    return frame.partial
      ? { kind: 'frame', raw_seq: this.rawSeq, ts: this.clock(), attempt, text: frame.text, partial: true }
      : { kind: 'frame', raw_seq: this.rawSeq, ts: this.clock(), attempt, text: frame.text };
  }
}
