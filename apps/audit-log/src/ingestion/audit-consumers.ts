import { AckPolicy, DeliverPolicy, type JetStreamManager } from '@nats-io/jetstream';
import { nanos } from '@nats-io/nats-core';

/** The durable consumers of the audit log, one per JetStream stream it stores. */
export const AUDIT_CONSUMERS = { events: 'audit-events', raw: 'audit-raw' } as const;

export interface ConsumerSettings {
  readonly ackWaitMs: number;
  readonly maxAckPending: number;
}

/**
 * Creates the durable pull consumer (every message from the stream's start, explicit acks, redelivered
 * forever until acked), or brings an existing one's ack wait and pending limit up to date.
 */
export async function ensureConsumer(jsm: JetStreamManager, stream: string, durable: string, settings: ConsumerSettings): Promise<void> {
  const limits = { ack_wait: nanos(settings.ackWaitMs), max_ack_pending: settings.maxAckPending };
  try {
    await jsm.consumers.add(stream, {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      max_deliver: -1,
      ...limits,
    });
  } catch {
    // It exists with other settings (an older ack wait): update what may change.
    await jsm.consumers.update(stream, durable, limits);
  }
}
