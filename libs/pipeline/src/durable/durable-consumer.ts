import { AckPolicy, DeliverPolicy, type JetStreamManager } from '@nats-io/jetstream';
import { nanos } from '@nats-io/nats-core';

/** A durable pull consumer: every message of the stream from its start, explicit acks, redelivered until settled. */
export interface DurableConsumerDefinition {
  readonly stream: string;
  /** The durable name, shared by every instance of the service (they split the messages). */
  readonly durable: string;
  /** A delivered message not settled (or kept alive with `working()`) within it is redelivered. */
  readonly ackWaitMs: number;
  /** At most this many delivered and unsettled messages; -1: no limit. */
  readonly maxAckPending: number;
}

/**
 * Creates the durable consumer, or brings an existing one's ack wait and pending limit up to date (it was
 * created by an older version with other settings). Fails if JetStream does not answer or the stream is missing.
 */
export async function ensureDurableConsumer(jsm: JetStreamManager, definition: DurableConsumerDefinition): Promise<void> {
  const limits = { ack_wait: nanos(definition.ackWaitMs), max_ack_pending: definition.maxAckPending };
  try {
    await jsm.consumers.add(definition.stream, {
      durable_name: definition.durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      max_deliver: -1,
      ...limits,
    });
  } catch {
    // It exists with other settings: update what may change.
    await jsm.consumers.update(definition.stream, definition.durable, limits);
  }
}
