import type { JsMsg } from '@nats-io/jetstream';
import type { Settlement } from './settlement.js';

/** What a failing handler's messages become: redelivered (after a delay) or never again. */
export type FailureSettlement = Extract<Settlement, { readonly kind: 'nak' | 'term' }>;

/** Handles one message; `stopping` aborts when the service shuts down (long waits should end then). */
export type SingleMessageHandler = (message: JsMsg, stopping: AbortSignal) => Promise<Settlement>;

/** Handles a batch; resolves to one settlement per message, in the batch's order. */
export type BatchMessageHandler = (batch: readonly JsMsg[], stopping: AbortSignal) => Promise<readonly Settlement[]>;

/**
 * How the consumer's messages reach their handler: one at a time, each settled before the next is taken, or
 * in batches that grow with the load (while one batch is handled, the next accumulates).
 */
export type DeliveryMode =
  | { readonly kind: 'single'; readonly handle: SingleMessageHandler; readonly onFailure: FailureSettlement }
  | {
      readonly kind: 'batch';
      readonly handle: BatchMessageHandler;
      readonly onFailure: FailureSettlement;
      readonly batchSize: number;
      /** How long a batch below the batch size waits for more messages before it is handled. */
      readonly lingerMs: number;
    };

/** What the consume loop hands messages to (one of the delivery modes). */
export interface MessageDelivery {
  start(): void;
  /** A message the consumer delivered; resolves when the loop may take the next one. */
  take(message: JsMsg): Promise<void>;
  /** Stops taking: what is in hand finishes and is settled, what waits is handed back (nak) to JetStream. */
  stop(): Promise<void>;
}
