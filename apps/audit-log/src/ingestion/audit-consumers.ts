import { DURABLE_CONSUMERS, STREAM_NAMES } from '@llm-stream/contract';
import type { JetStreamConsumer } from '@llm-stream/nest-kit';
import { nak } from '@llm-stream/pipeline';
import type { AuditConfig } from '../config/audit-config.js';

/** The durable consumers of the audit log, one per JetStream stream it stores (the patterns of its handlers). */
export const AUDIT_CONSUMERS = { events: DURABLE_CONSUMERS.auditEvents.durable, raw: DURABLE_CONSUMERS.auditRaw.durable } as const;

/** A batch handler that fails outright (not a refused message: those are isolated) gives its batch back after this. */
const FAILED_BATCH_RETRY_MS = 1_000;

/**
 * Both consumers take batches (up to AUDIT_BATCH_SIZE, lingering AUDIT_BATCH_LINGER_MS for a fuller one), every
 * message from the stream's start, explicit acks after the commit, at most AUDIT_MAX_ACK_PENDING unacked (what
 * bounds the memory held while the store is away).
 */
export function auditConsumers(config: AuditConfig): JetStreamConsumer[] {
  const consumer = (stream: string, durable: string): JetStreamConsumer => ({
    consumer: { stream, durable, ackWaitMs: config.AUDIT_ACK_WAIT_MS, maxAckPending: config.AUDIT_MAX_ACK_PENDING },
    delivery: { kind: 'batch', batchSize: config.AUDIT_BATCH_SIZE, lingerMs: config.AUDIT_BATCH_LINGER_MS, onFailure: nak(FAILED_BATCH_RETRY_MS) },
  });
  return [consumer(STREAM_NAMES.events, AUDIT_CONSUMERS.events), consumer(STREAM_NAMES.raw, AUDIT_CONSUMERS.raw)];
}
