import { RequestError, type NatsConnection } from '@nats-io/nats-core';
import { tenantCopyInfoSubject } from './nats-identities.js';

/** How many messages one copy of a subject holds; `Infinity` when there is no such copy. */
export type CopyCounter = (subject: string) => Promise<number>;

/**
 * Counts a subject in the tenant's own copy of its events (its account's `LLM_EVENTS`, fed by the platform's
 * export), through the stream-info service the tenant's account exports to the platform. A tenant without an
 * account (no service behind the subject: no responders) has no copy to prove: `Infinity`. Any other failure
 * rejects, and the publisher's retry loop asks again.
 */
export function tenantCopyCounter(nc: NatsConnection, tenant: string): CopyCounter {
  return async (subject) => {
    let text: string;
    try {
      const reply = await nc.request(tenantCopyInfoSubject(tenant), JSON.stringify({ subjects_filter: subject }), { timeout: 5_000 });
      text = reply.string();
    } catch (error) {
      if (error instanceof RequestError && error.isNoResponders()) return Number.POSITIVE_INFINITY;
      throw error;
    }
    const info = JSON.parse(text) as { error?: { description?: string }; state?: { subjects?: Record<string, number> } };
    if (info.error !== undefined) throw new Error(`tenant copy of ${subject}: ${info.error.description ?? 'stream info failed'}`);
    return info.state?.subjects?.[subject] ?? 0;
  };
}
