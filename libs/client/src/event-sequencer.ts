import { isTerminalEvent, type ContractEvent } from '@llm-stream/contract';
import { StreamGapError } from './stream-gap-error.js';

/** An event with whatever the caller needs to settle it later (a JetStream delivery to ack, or nothing). */
export interface SequencedEvent<T> {
  readonly event: ContractEvent;
  readonly token: T;
}

/**
 * What {@link EventSequencer.accept} did with an event:
 * - `released`: it is next in its stream (and may have released held successors);
 * - `held`: an earlier seq of its stream is missing, so it waits;
 * - `duplicate`: this seq was already released or is already held;
 * - `skipped`: the seq lies before the stream's start point (an `afterSeq`, a checkpoint, a mid-stream join);
 * - `after_terminal`: the seq lies after the stream's terminal event, which the contract forbids.
 */
export type AcceptVerdict = 'released' | 'held' | 'duplicate' | 'skipped' | 'after_terminal';

/** Events that became deliverable, in order, and held events dropped because they follow a terminal event. */
export interface Release<T> {
  readonly released: readonly SequencedEvent<T>[];
  readonly discarded: readonly SequencedEvent<T>[];
}

export interface AcceptResult<T> extends Release<T> {
  readonly verdict: AcceptVerdict;
}

/**
 * A hold that ended: a stream of unknown start joined at its lowest held seq, or a gap in a stream whose
 * start is known (the caller throws the error or calls {@link EventSequencer.skipGap}).
 */
export type Expiry<T> =
  | { readonly kind: 'joined'; readonly streamId: string; readonly release: Release<T> }
  | { readonly kind: 'gap'; readonly error: StreamGapError };

export interface EventSequencerOptions {
  /** How long later events are held while an earlier seq is missing. */
  readonly gapTimeoutMs: number;
  /** Bound on the events held over all streams. */
  readonly maxHeld: number;
  /** Finished streams remembered to recognise late duplicates; the oldest are forgotten first. */
  readonly maxFinished: number;
}

interface ActiveStream<T> {
  /** Last seq released; `undefined` while the stream's start is unknown (first seen mid-way). */
  floor: number | undefined;
  /** First seq this sequencer releases (or would have): seqs below it are `skipped`, not duplicates. */
  start: number;
  readonly held: Map<number, SequencedEvent<T>>;
  /** When the current hold began (the earliest held event, or the last progress past a gap). */
  heldSince: number | undefined;
}

/**
 * Turns events that may arrive duplicated and out of order into each stream's events exactly once and in
 * seq order. Pure state: no I/O, no clock (callers pass `now`), so it is tested exhaustively without NATS.
 *
 * A stream's start is either known ({@link track}: seq 1, or the seq after an `afterSeq` or a checkpoint) or
 * learnt: seq 1 fixes it at once; otherwise the stream was joined mid-way (a subscription that began after
 * the stream did, or an expired prefix), and after the gap timeout (and never before
 * {@link setJoinNotBefore}) it starts at its lowest held seq. Once the start is known, a missing seq holds
 * its successors for at most the gap timeout, then becomes a {@link StreamGapError}.
 */
export class EventSequencer<T> {
  private readonly active = new Map<string, ActiveStream<T>>();
  /** Finished streams: their start and terminal seq, in finishing order (a Map iterates in insertion order). */
  private readonly finished = new Map<string, { readonly start: number; readonly terminal: number }>();
  /** Streams with held events: the only ones with a deadline. */
  private readonly holding = new Set<string>();
  private heldTotal = 0;
  private joinNotBefore = 0;

  constructor(private readonly options: EventSequencerOptions) {}

  /** Events held over all streams. */
  get heldCount(): number {
    return this.heldTotal;
  }

  /** Sets a stream's start: seqs up to `floor` count as already delivered. Only before its first event. */
  track(streamId: string, floor: number): void {
    if (this.knows(streamId)) return;
    this.active.set(streamId, { floor, start: floor + 1, held: new Map(), heldSince: undefined });
  }

  /** The sequencer has seen or tracked the stream (and still remembers it). */
  knows(streamId: string): boolean {
    return this.active.has(streamId) || this.finished.has(streamId);
  }

  /** The stream's terminal event was released (or skipped as before its start). */
  isFinished(streamId: string): boolean {
    return this.finished.has(streamId);
  }

  /** Joins of streams with an unknown start wait at least until `time` (a redelivery window). */
  setJoinNotBefore(time: number): void {
    this.joinNotBefore = time;
  }

  accept(event: ContractEvent, token: T, now: number): AcceptResult<T> {
    const { stream_id: streamId, seq } = event;
    const ended = this.finished.get(streamId);
    if (ended !== undefined) return verdict(seq < ended.start ? 'skipped' : seq <= ended.terminal ? 'duplicate' : 'after_terminal');
    let stream = this.active.get(streamId);
    if (stream === undefined) {
      stream = { floor: undefined, start: 1, held: new Map(), heldSince: undefined };
      this.active.set(streamId, stream);
    }
    if (stream.floor === undefined && seq === 1) stream.floor = 0;
    if (stream.floor !== undefined && seq <= stream.floor) {
      const kind = seq < stream.start ? 'skipped' : 'duplicate';
      // A terminal event before the start point (an afterSeq at or past the end) still ends the stream.
      if (isTerminalEvent(event)) return { verdict: kind, released: [], discarded: this.finish(streamId, seq) };
      return verdict(kind);
    }
    if (stream.held.has(seq)) return verdict('duplicate');
    stream.held.set(seq, { event, token });
    this.heldTotal += 1;
    if (stream.floor === undefined || seq !== stream.floor + 1) {
      stream.heldSince ??= now;
      this.holding.add(streamId);
      return verdict('held');
    }
    return { verdict: 'released', ...this.releaseReady(streamId, stream, now) };
  }

  /** The earliest time at which {@link expireNext} has something to do; `undefined` when nothing is held. */
  nextDeadline(): number | undefined {
    let earliest: number | undefined;
    for (const streamId of this.holding) {
      const deadline = this.deadlineOf(this.active.get(streamId));
      if (deadline !== undefined && (earliest === undefined || deadline < earliest)) earliest = deadline;
    }
    return earliest;
  }

  /**
   * The most urgent hold that must end at `now`: the buffer bound first (the oldest hold gives way), then
   * the first expired deadline. Call it until it returns `undefined`.
   */
  expireNext(now: number): Expiry<T> | undefined {
    if (this.heldTotal > this.options.maxHeld) {
      const oldest = this.oldestHold();
      if (oldest !== undefined) return this.endHold(oldest, now, 'buffer_full');
    }
    for (const streamId of this.holding) {
      const deadline = this.deadlineOf(this.active.get(streamId));
      if (deadline !== undefined && deadline <= now) return this.endHold(streamId, now, 'gap_timeout');
    }
    return undefined;
  }

  /** Gives up on a stream's missing seqs: it continues at its lowest held seq. */
  skipGap(streamId: string, now: number): Release<T> {
    const stream = this.active.get(streamId);
    if (stream === undefined || stream.held.size === 0) return { released: [], discarded: [] };
    stream.floor = Math.min(...stream.held.keys()) - 1;
    return this.releaseReady(streamId, stream, now);
  }

  /** Every held event's token (to hand back deliveries when a subscription stops). */
  heldTokens(): T[] {
    return [...this.active.values()].flatMap((stream) => [...stream.held.values()].map((item) => item.token));
  }

  private deadlineOf(stream: ActiveStream<T> | undefined): number | undefined {
    if (stream?.heldSince === undefined) return undefined;
    const deadline = stream.heldSince + this.options.gapTimeoutMs;
    return stream.floor === undefined ? Math.max(deadline, this.joinNotBefore) : deadline;
  }

  private oldestHold(): string | undefined {
    let oldest: string | undefined;
    let since = Infinity;
    for (const streamId of this.holding) {
      const heldSince = this.active.get(streamId)?.heldSince ?? Infinity;
      if (heldSince < since) [oldest, since] = [streamId, heldSince];
    }
    return oldest;
  }

  private endHold(streamId: string, now: number, code: StreamGapError['code']): Expiry<T> {
    const stream = this.active.get(streamId);
    if (stream === undefined) throw new Error(`no active stream ${streamId}`);
    const heldSeqs = [...stream.held.keys()].sort((a, b) => a - b);
    if (stream.floor !== undefined) {
      return { kind: 'gap', error: new StreamGapError(code, streamId, stream.floor + 1, heldSeqs.slice(0, 16)) };
    }
    // Joined mid-way: what came before the lowest held seq is not ours to deliver.
    stream.start = heldSeqs[0] ?? 1;
    stream.floor = stream.start - 1;
    return { kind: 'joined', streamId, release: this.releaseReady(streamId, stream, now) };
  }

  /** Releases the held run that starts right after the floor; a terminal event ends the stream. */
  private releaseReady(streamId: string, stream: ActiveStream<T>, now: number): Release<T> {
    const released: SequencedEvent<T>[] = [];
    let floor = stream.floor ?? 0;
    for (let next = stream.held.get(floor + 1); next !== undefined; next = stream.held.get(floor + 1)) {
      stream.held.delete(next.event.seq);
      this.heldTotal -= 1;
      floor = next.event.seq;
      stream.floor = floor;
      released.push(next);
      if (isTerminalEvent(next.event)) return { released, discarded: this.finish(streamId, next.event.seq) };
    }
    stream.heldSince = stream.held.size > 0 ? now : undefined;
    if (stream.held.size === 0) this.holding.delete(streamId);
    return { released, discarded: [] };
  }

  /** Ends a stream; returns its held events, which all follow the terminal event. */
  private finish(streamId: string, terminalSeq: number): SequencedEvent<T>[] {
    const stream = this.active.get(streamId);
    const discarded = [...(stream?.held.values() ?? [])];
    this.heldTotal -= discarded.length;
    this.active.delete(streamId);
    this.holding.delete(streamId);
    this.finished.set(streamId, { start: Math.min(stream?.start ?? 1, terminalSeq), terminal: terminalSeq });
    for (const oldest of this.finished.keys()) {
      if (this.finished.size <= this.options.maxFinished) break;
      this.finished.delete(oldest);
    }
    return discarded;
  }
}

function verdict<T>(kind: Exclude<AcceptVerdict, 'released'>): AcceptResult<T> {
  return { verdict: kind, released: [], discarded: [] };
}
