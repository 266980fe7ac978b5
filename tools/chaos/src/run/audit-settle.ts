import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { waitFor } from '@llm-stream/testing';

/** The audit log's durable consumers (apps/audit-log README, "Ingestion"). */
const AUDIT_CONSUMERS = [
  { stream: 'LLM_EVENTS', consumer: 'audit-events' },
  { stream: 'LLM_RAW', consumer: 'audit-raw' },
] as const;

/**
 * Waits until the audit log has taken and acknowledged every stored message (its consumers have nothing
 * pending and nothing unacknowledged): a killed audit log's unacknowledged messages come back only after its
 * ack wait (30 s shipped), and the check must not count those as lost. Resolves false on timeout.
 */
export async function waitForAuditCaughtUp(connectChecker: () => Promise<NatsConnection>, timeoutMs: number): Promise<boolean> {
  const nc = await connectChecker();
  try {
    const jsm = await jetstreamManager(nc);
    await waitFor(
      async () => {
        for (const { stream, consumer } of AUDIT_CONSUMERS) {
          const info = await jsm.consumers.info(stream, consumer);
          if (info.num_pending > 0 || info.num_ack_pending > 0) return false;
        }
        return true;
      },
      { timeoutMs, intervalMs: 500, description: 'the audit consumers to have nothing pending' },
    );
    return true;
  } catch {
    return false;
  } finally {
    await nc.close();
  }
}
