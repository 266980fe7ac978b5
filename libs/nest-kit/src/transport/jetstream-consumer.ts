import type { DurableConsumerDefinition, FailureSettlement } from '@llm-stream/pipeline';

/** How a consumer's handler takes its messages: one at a time, or in batches (up to `batchSize`). */
export type JetStreamDelivery =
  | { readonly kind: 'single'; readonly onFailure: FailureSettlement }
  | { readonly kind: 'batch'; readonly onFailure: FailureSettlement; readonly batchSize: number; readonly lingerMs: number };

/**
 * One durable consumer the JetStream transport runs. Its handler is the `@EventPattern(<durable name>,
 * JETSTREAM_TRANSPORT)` method: it takes the message (or the batch, an array) and a JetStreamContext, and returns the
 * message's Settlement (or one per message of the batch); a handler that throws settles by `onFailure`.
 */
export interface JetStreamConsumer {
  readonly consumer: DurableConsumerDefinition;
  readonly delivery: JetStreamDelivery;
  /** Messages pulled ahead of the handler; default 32, or the batch size. */
  readonly pullAhead?: number;
}
