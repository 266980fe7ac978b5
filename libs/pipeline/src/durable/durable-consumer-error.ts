/**
 * Why a durable consumer's consume ended before it was stopped (the loop starts it again after a pause):
 * - `setup_failed`: the consumer could not be created, updated or looked up (NATS away, the stream missing);
 * - `consume_failed`: the message iteration failed (the consumer was deleted, the connection closed);
 * - `consume_ended`: the iteration ended by itself;
 * - `reconnected`: the connection came back after a disconnect; a fresh consume replaces nats.js's recovery
 *   of the old one, whose pull accounting can stall until the pending pull expires.
 */
export class DurableConsumerError extends Error {
  override readonly name = 'DurableConsumerError';

  constructor(
    readonly code: 'setup_failed' | 'consume_failed' | 'consume_ended' | 'reconnected',
    readonly consumer: string,
    options?: { cause?: unknown },
  ) {
    super(`durable consumer ${consumer}: ${code}`, options);
  }
}
