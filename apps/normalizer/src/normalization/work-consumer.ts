import { DURABLE_CONSUMERS, STREAM_NAMES } from '@llm-stream/contract';
import type { JetStreamConsumer } from '@llm-stream/nest-kit';
import { nak } from '@llm-stream/pipeline';
import type { NormalizerConfig } from '../config/normalizer-config.js';

/** The durable consumer all normalizer replicas share on LLM_WORK (the pattern of its handler). */
export const WORK_CONSUMER = DURABLE_CONSUMERS.normalizerWork.durable;

/** How often an owner tells JetStream it still works on an item: a third of the ack wait. */
export function workingIntervalMs(config: NormalizerConfig): number {
  return Math.max(200, Math.floor(config.WORK_ACK_WAIT_MS / 3));
}

/**
 * The work-item consumer: one item at a time (taking one only starts its worker), no limit on items in
 * progress (MAX_CONCURRENT_STREAMS is the normalizer's own limit), redelivered forever until acked. A take that
 * fails gives the item back for another replica after the working interval.
 */
export function workConsumer(config: NormalizerConfig): JetStreamConsumer {
  return {
    consumer: { stream: STREAM_NAMES.work, durable: WORK_CONSUMER, ackWaitMs: config.WORK_ACK_WAIT_MS, maxAckPending: -1 },
    delivery: { kind: 'single', onFailure: nak(workingIntervalMs(config)) },
  };
}
