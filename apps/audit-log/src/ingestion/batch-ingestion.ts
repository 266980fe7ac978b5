import { setTimeout as delay } from 'node:timers/promises';
import type { JsMsg } from '@nats-io/jetstream';
import type { Result } from '@llm-stream/contract';
import { ACK, TERM, nak, type Settlement } from '@llm-stream/pipeline';
import { errorCode } from '@llm-stream/service-kit';
import type { UnstorableMessage } from './read-event-message.js';

/** Waits before the retries of a lone message the store refuses while the database answers. */
const SINGLE_MESSAGE_RETRIES_MS = [100, 1_000] as const;

/** A message and what it decoded to. */
export interface Decoded<T> {
  readonly item: T;
  readonly message: JsMsg;
}

/** What one consumer stores and how. */
export interface BatchHandler<T> {
  /** `null`: nothing to store (acked at once); an error: it can never be stored (terminated). */
  decode(message: JsMsg): Result<T | null, UnstorableMessage>;
  /** Stores the batch in one transaction; throws if nothing was committed. */
  commit(batch: readonly Decoded<T>[]): Promise<void>;
}

/** Where ingestion reports (metrics, logs, readiness live in the service around it). */
export interface IngestionObserver {
  skipped(consumer: string, message: JsMsg): void;
  /** `reason` is a code, never a text that could quote the message. */
  rejected(consumer: string, message: JsMsg, reason: string): void;
  storeUnavailable(consumer: string, error: unknown): void;
  storeAvailable(consumer: string): void;
}

export interface BatchIngestionOptions {
  readonly consumer: string;
  /** Resolves when the database answers. */
  readonly ping: () => Promise<void>;
  readonly observer: IngestionObserver;
}

/**
 * Stores one batch a durable consumer delivered (the JetStream transport batches and settles) and says what
 * becomes of each message: acked once committed, terminated if it can never be stored.
 *
 * A failed commit is one of two things. If the database does not answer, the store is away: the batch is
 * held, the ingestion reports unavailable and polls the database, and once it answers the batch is stored
 * again, in its order (the transport keeps the held messages and those queued behind them alive with
 * `working()`, and JetStream stops delivering at max_ack_pending, so nothing is redelivered meanwhile and the
 * memory stays bounded). Stopped during the outage, it hands the batch back (nak). If the database answers,
 * the batch holds a message the store refuses: the batch is split in halves until that message is alone, and
 * it is terminated (never redelivered) while the rest is stored.
 */
export class BatchIngestion<T> {
  constructor(
    private readonly handler: BatchHandler<T>,
    private readonly options: BatchIngestionOptions,
  ) {}

  async store(batch: readonly JsMsg[], stopping: AbortSignal): Promise<Settlement[]> {
    const { consumer, observer } = this.options;
    const settlements = new Map<JsMsg, Settlement>();
    let decoded: Decoded<T>[] = [];
    for (const message of batch) {
      const result = this.handler.decode(message);
      if (!result.ok) {
        settlements.set(message, TERM);
        observer.rejected(consumer, message, result.error.message);
      } else if (result.value === null) {
        settlements.set(message, ACK);
        observer.skipped(consumer, message);
      } else {
        decoded.push({ item: result.value, message });
      }
    }
    while (decoded.length > 0) {
      const unstored = await this.commitOrIsolate(decoded, settlements);
      decoded = unstored;
      if (unstored.length === 0 || !(await this.waitForStore(stopping))) break;
    }
    // Stopped while the store was away: handed back, for this or another instance once it answers.
    for (const { message } of decoded) settlements.set(message, nak());
    return batch.map((message) => settlements.get(message) ?? nak());
  }

  /** Settles what it can; returns what is left unstored because the store is away. */
  private async commitOrIsolate(batch: readonly Decoded<T>[], settlements: Map<JsMsg, Settlement>, retries: readonly number[] = SINGLE_MESSAGE_RETRIES_MS): Promise<Decoded<T>[]> {
    if (batch.length === 0) return [];
    const { consumer, observer } = this.options;
    try {
      await this.handler.commit(batch);
      for (const { message } of batch) settlements.set(message, ACK);
      return [];
    } catch (error) {
      if (!(await this.storeAnswers())) {
        observer.storeUnavailable(consumer, error);
        return [...batch];
      }
      const [only] = batch;
      if (batch.length === 1 && only !== undefined) {
        // Alone and still failing: retried a little first (a failure can be transient even while the
        // database answers), then terminated so that it does not block everything behind it.
        const [wait, ...later] = retries;
        if (wait !== undefined) {
          await delay(wait);
          return this.commitOrIsolate(batch, settlements, later);
        }
        settlements.set(only.message, TERM);
        observer.rejected(consumer, only.message, errorCode(error));
        return [];
      }
      const half = Math.ceil(batch.length / 2);
      const first = await this.commitOrIsolate(batch.slice(0, half), settlements);
      if (first.length > 0) return [...first, ...batch.slice(half)];
      return this.commitOrIsolate(batch.slice(half), settlements);
    }
  }

  private async storeAnswers(): Promise<boolean> {
    try {
      await this.options.ping();
      return true;
    } catch {
      return false;
    }
  }

  /** Polls the database until it answers (true) or the consumer stops (false). */
  private async waitForStore(stopping: AbortSignal): Promise<boolean> {
    for (let wait = 250; !aborted(stopping); wait = Math.min(wait * 2, 2_000)) {
      await delay(wait, undefined, { signal: stopping }).catch(() => undefined);
      if (aborted(stopping)) return false;
      if (await this.storeAnswers()) {
        this.options.observer.storeAvailable(this.options.consumer);
        return true;
      }
    }
    return false;
  }
}

/** Read through a call: the signal aborts while the ingestion awaits (a property read would be narrowed). */
function aborted(signal: AbortSignal): boolean {
  return signal.aborted;
}
