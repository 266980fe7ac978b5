import {
  StreamMachine,
  assertNever,
  isTerminalEvent,
  type ErrorCategory,
  type TerminalEvent,
  type TerminalStatus,
  type AttemptEndRecord,
  type ContractEvent,
  type FailInput,
  type GatewayShutdownReason,
  type MachineInput,
  type ProviderName,
  type StreamOpenRecord,
  type TraceRecord,
} from '@llm-stream/contract';
import type { ProviderAdapter } from '../adapter.js';
import { parseSseRecord } from '../sse/sse-record.js';
import type { SseFrame } from '../sse/sse-frame.js';
import { attemptEndFailure } from './attempt-end-failure.js';
import { outsideEndFailure, type OutsideEnd } from './outside-end-failure.js';
import { SeqOrder } from './seq-order.js';

/** Counts provider event and part types an adapter skipped; the services export it as a metric. */
export interface UnknownEventCounter {
  unknown(provider: ProviderName, eventType: string): void;
}

export interface NormalizerSessionOptions {
  /** Creates a fresh adapter for each upstream attempt. */
  readonly createAdapter: (provider: ProviderName) => ProviderAdapter;
  readonly unknownEvents?: UnknownEventCounter;
  /**
   * Records held after a gap in raw_seq before the gap is given up and the stream ends interrupted
   * (default 10,000): a gap normally fills when the gateway repairs its trace at the end of the stream.
   */
  readonly maxHeldRecords?: number;
}

/** Default of {@link NormalizerSessionOptions.maxHeldRecords}. */
export const DEFAULT_MAX_HELD_RECORDS = 10_000;

interface OfferedRecord {
  readonly record: TraceRecord;
  readonly parsed: SseFrame | undefined;
}

interface HeldInput {
  readonly input: MachineInput;
  readonly ts: number;
}

/**
 * Turns one stream's raw trace into contract events: trace records in, events out, deterministically (no
 * clock, no I/O), so replaying a stream's records on another normalizer replica yields the same events.
 *
 * Retries: until an attempt shows a visible delta, its block inputs are held back. If the attempt then fails
 * in a retryable way and the stream's attempt budget allows, the held inputs are discarded and the next
 * attempt starts clean: the client sees one `stream.start` and no duplicated content. The gateway runs the
 * same session in process to know when to retry and whether a frame made progress.
 */
export class NormalizerSession {
  private machine: StreamMachine | undefined;
  private opened: StreamOpenRecord | undefined;
  private adapter: ProviderAdapter | undefined;
  private attempt = 0;
  private readonly order: SeqOrder<OfferedRecord>;
  private gapGivenUp = false;
  /** Inputs of the current attempt not yet applied; `null` once something visible went out. */
  private held: HeldInput[] | null = null;
  /** A retryable failure waiting for the end of its attempt, which decides between retry and error. */
  private heldFailure: FailInput | undefined;
  private attemptSettled = false;
  private visibleSeen = false;
  private retryPending = false;
  private progressTs: number | undefined;
  private ignored = 0;
  private terminalEvent: TerminalEvent | undefined;
  private readonly warnedTypes = new Set<string>();

  constructor(private readonly options: NormalizerSessionOptions) {
    this.order = new SeqOrder(options.maxHeldRecords ?? DEFAULT_MAX_HELD_RECORDS);
  }

  /** True once `stream.done` or `stream.error` was emitted. */
  get terminal(): boolean {
    return this.machine?.isTerminal ?? false;
  }

  /** How the stream ended, once it has. */
  get terminalStatus(): TerminalStatus | undefined {
    return this.terminalEvent?.status;
  }

  /** The error category of a failed or interrupted stream. */
  get errorCategory(): ErrorCategory | undefined {
    return this.terminalEvent?.type === 'stream.error' ? this.terminalEvent.error.category : undefined;
  }

  /** The seq of the last event emitted (0 before stream.start). */
  get lastSeq(): number {
    return this.machine?.lastSeq ?? 0;
  }

  /**
   * The raw_seq of the last record processed: records are processed in raw_seq order, so every record up to
   * this one has been.
   */
  get lastRawSeq(): number {
    return this.order.lastReleased;
  }

  /** Records received after a gap in raw_seq, waiting for it to fill. */
  get heldRecords(): number {
    return this.order.heldCount;
  }

  /**
   * The last attempt ended in a failure that will be retried: the next record should be `attempt.start`.
   * Never true once the stream ended (a cancellation or gateway loss while a retry was due).
   */
  get awaitingRetry(): boolean {
    return this.retryPending && !this.terminal;
  }

  /**
   * The current attempt failed retryably and nothing visible went out: the upstream may be aborted now.
   * Never true once the stream ended.
   */
  get retryableFailurePending(): boolean {
    return this.heldFailure !== undefined && !this.terminal;
  }

  /** Whether any block delta has been emitted: after that, the stream is never retried. */
  get visibleContentSeen(): boolean {
    return this.visibleSeen;
  }

  /** Receive time of the last record that made progress (a block input or a terminal one). */
  get lastProgressTs(): number | undefined {
    return this.progressTs;
  }

  /**
   * Records that could not be used: before stream.open, duplicates by raw_seq, frames outside an attempt,
   * records of an attempt other than the current one.
   */
  get ignoredRecords(): number {
    return this.ignored;
  }

  /**
   * Drops the records held after a gap, as if they never arrived: a reader that gives live order up reads the
   * trace again in stored order, and what the session derives must then depend on the stored order alone.
   */
  forgetHeldRecords(): void {
    this.order.forgetHeld();
  }

  /**
   * Accepts the next record in stored order and returns the events it caused. Records are processed in raw_seq
   * order: one that arrives after a gap is held until the gap fills (its events come with the record that fills
   * it); a raw_seq seen before is a duplicate and ignored. If more than `maxHeldRecords` wait, the gap is given
   * up and the stream ends interrupted. `parsed` lets a caller that already decoded a frame skip re-parsing it.
   */
  accept(record: TraceRecord, parsed?: SseFrame): ContractEvent[] {
    if (this.gapGivenUp) {
      this.ignored += 1;
      return [];
    }
    if (this.order.releaseIfNext(record.raw_seq)) return this.process(record, parsed);
    // A normalizer's gateway.lost has raw_seq 0, outside the gateway's numbering: it takes effect where it is
    // stored (the same place for every reader), whatever waits in the reorder buffer.
    if (record.kind === 'gateway.lost' && record.raw_seq === 0) return this.process(record, parsed);
    const offered = this.order.offer(record.raw_seq, { record, parsed });
    switch (offered.kind) {
      case 'duplicate':
        this.ignored += 1;
        return [];
      case 'held':
        return [];
      case 'overflow': {
        // Deterministic: every replica reads the same stored order, so all of them give up at the same record.
        this.gapGivenUp = true;
        this.ignored += 1;
        const out: ContractEvent[] = [];
        const held = this.options.maxHeldRecords ?? DEFAULT_MAX_HELD_RECORDS;
        if (this.machine && !this.machine.isTerminal)
          this.endFromOutside({ cause: 'raw_trace_gap', missing: offered.missing, held }, record.ts, out);
        return out;
      }
      case 'ready':
        return offered.items.flatMap((item) => this.process(item.record, item.parsed));
      default:
        return assertNever(offered, 'raw_seq offer');
    }
  }

  private process(record: TraceRecord, parsed: SseFrame | undefined): ContractEvent[] {
    if (record.kind === 'stream.open') return this.open(record);
    const machine = this.machine;
    if (!machine) {
      this.ignored += 1;
      return [];
    }
    if (machine.isTerminal) return [];
    const ofAnAttempt = record.kind === 'upstream.response' || record.kind === 'frame' || record.kind === 'attempt.end';
    if (ofAnAttempt && record.attempt !== this.attempt) {
      // A late record of an attempt that was given up (or of none yet) must not reach the current attempt's
      // adapter: a stale delta would hit a block the new attempt never opened, a stale end would end it.
      this.ignored += 1;
      return [];
    }
    const out: ContractEvent[] = [];
    switch (record.kind) {
      case 'attempt.start':
        this.startAttempt(record.attempt);
        break;
      case 'upstream.response':
        if (this.adapter) this.route(this.adapter.response(record), record.ts, out);
        else this.ignored += 1;
        break;
      case 'frame':
        if (this.adapter) this.route(this.adapter.frame(parsed ?? parseSseRecord(record.text, record.partial === true)), record.ts, out);
        else this.ignored += 1;
        break;
      case 'attempt.end':
        this.endAttempt(record, out);
        break;
      case 'client.cancel':
        this.endFromOutside({ cause: record.reason }, record.ts, out);
        break;
      case 'gateway.lost':
        this.endFromOutside({ cause: 'gateway_lost' }, record.ts, out);
        break;
      case 'gateway.shutdown':
        this.endFromOutside({ cause: shutdownCause(record.reason) }, record.ts, out);
        break;
      case 'heartbeat':
        this.apply({ type: 'heartbeat' }, record.ts, out);
        break;
      case 'client.request':
        // What the client asked (recorded for prompt capture only) has no bearing on the answer's events.
        break;
      default:
        return assertNever(record, 'trace record');
    }
    return out;
  }

  private open(record: StreamOpenRecord): ContractEvent[] {
    if (this.machine) {
      this.ignored += 1;
      return [];
    }
    this.opened = record;
    this.machine = new StreamMachine({
      stream_id: record.stream_id,
      provider: record.provider,
      model: record.model,
      tenant: record.tenant,
      ...(record.route !== undefined && { route: record.route }),
    });
    return this.machine.start(record.ts);
  }

  private startAttempt(attempt: number): void {
    const opened = this.opened;
    if (!opened) return;
    this.attempt = attempt;
    this.adapter = this.options.createAdapter(opened.provider);
    this.held = this.visibleSeen ? null : [];
    this.heldFailure = undefined;
    this.attemptSettled = false;
    this.retryPending = false;
  }

  private endAttempt(record: AttemptEndRecord, out: ContractEvent[]): void {
    const { ts } = record;
    if (this.adapter) this.route(this.adapter.end(record), ts, out);
    if (!this.attemptSettled) this.route([attemptEndFailure(record.reason, record.detail)], ts, out);
    this.adapter = undefined;
    const failure = this.heldFailure;
    if (failure === undefined) return;
    this.heldFailure = undefined;
    if (this.retryAllowed()) {
      // Nothing of this attempt was visible: forget it; the next attempt starts clean.
      this.held = null;
      this.retryPending = true;
      return;
    }
    this.flushHeld(out);
    this.apply(failure, ts, out);
  }

  /** Maps adapter inputs: warnings and heartbeats pass at once, block inputs wait until something is visible. */
  private route(inputs: readonly MachineInput[], ts: number, out: ContractEvent[]): void {
    for (const input of inputs) {
      if (this.attemptSettled) return;
      switch (input.type) {
        case 'warn':
          if (input.warning.code === 'unknown_event' || input.warning.code === 'unknown_part') {
            const type = input.warning.provider_event_type ?? input.warning.code;
            if (this.opened) this.options.unknownEvents?.unknown(this.opened.provider, type);
            if (this.warnedTypes.has(type)) continue;
            this.warnedTypes.add(type);
          }
          this.apply(input, ts, out);
          continue;
        case 'heartbeat':
          this.apply(input, ts, out);
          continue;
        case 'block.open':
        case 'block.close':
          this.progressTs = ts;
          if (this.held) this.held.push({ input, ts });
          else this.apply(input, ts, out);
          continue;
        case 'block.append':
          this.progressTs = ts;
          this.visibleSeen = true;
          this.flushHeld(out);
          this.apply(input, ts, out);
          continue;
        case 'finish':
          this.progressTs = ts;
          this.attemptSettled = true;
          this.flushHeld(out);
          this.apply(input, ts, out);
          continue;
        case 'fail':
          this.progressTs = ts;
          this.attemptSettled = true;
          if (this.held && this.isRetryableFailure(input) && this.retryAllowed()) {
            this.heldFailure = input;
            continue;
          }
          this.flushHeld(out);
          this.apply(input, ts, out);
          continue;
        default:
          assertNever(input, 'machine input');
      }
    }
  }

  /** Ends the stream for a reason outside the upstream's control: what is held goes out first, then the error. */
  private endFromOutside(end: OutsideEnd, ts: number, out: ContractEvent[]): void {
    this.flushHeld(out);
    this.apply(outsideEndFailure(end), ts, out);
  }

  private isRetryableFailure(input: FailInput): boolean {
    return input.error.retryable === true || input.error.category === 'transport_interrupted';
  }

  private retryAllowed(): boolean {
    return !this.visibleSeen && this.opened !== undefined && this.attempt < this.opened.max_attempts;
  }

  private flushHeld(out: ContractEvent[]): void {
    const held = this.held;
    this.held = null;
    if (!held) return;
    for (const { input, ts } of held) this.apply(input, ts, out);
  }

  private apply(input: MachineInput, ts: number, out: ContractEvent[]): void {
    const machine = this.machine;
    if (!machine) return;
    const event = machine.step(input, ts);
    if (event === undefined) return;
    if (isTerminalEvent(event)) this.terminalEvent = event;
    out.push(event);
  }
}

/** The outside end a gateway's own `gateway.shutdown` stands for (no reason: a drain that ran out). */
function shutdownCause(reason: GatewayShutdownReason | undefined): 'gateway_shutdown' | 'trace_backlog' | 'not_opened' {
  switch (reason) {
    case undefined:
    case 'drain_timeout':
      return 'gateway_shutdown';
    case 'trace_backlog':
      return 'trace_backlog';
    case 'not_opened':
      return 'not_opened';
    default:
      return assertNever(reason, 'gateway shutdown reason');
  }
}
