import type { NatsConnection } from '@nats-io/transport-node';
import { LlmStreamClient, type EventSubscription } from '@llm-stream/client';
import { eventContentHash } from '../check/event-content.js';
import type { SeenEvent } from '../recorded-run.js';

/**
 * A backend per tenant reading `llm.events.<tenant>.>` with the typed client for the whole run, as a tool
 * runner would. What it delivered is recorded per stream; the checker judges it.
 */
export class BackendSubscriber {
  readonly seen = new Map<string, SeenEvent[]>();
  /** Gaps the typed client gave up waiting for (its gap timeout); the events after them were delivered. */
  readonly gaps: { readonly streamId: string; readonly expectedSeq: number; readonly at: number }[] = [];
  /** Set when a subscription ended with an error: the backend saw nothing after that. */
  failure: string | null = null;
  private readonly subscriptions: EventSubscription[] = [];
  private readonly loops: Promise<void>[] = [];

  private constructor(private readonly connections: readonly NatsConnection[]) {}

  /** `connectAs` opens each tenant's connection as its backend user (it reads its own account's LLM_EVENTS). */
  static async start(tenants: readonly string[], connectAs: (tenant: string) => Promise<NatsConnection>): Promise<BackendSubscriber> {
    const connections = await Promise.all(tenants.map(connectAs));
    const backend = new BackendSubscriber(connections);
    for (const [index, tenant] of tenants.entries()) {
      const nc = connections[index];
      if (nc === undefined) throw new Error(`no connection for ${tenant}`);
      // A gap the client gives up on is what the backend saw: recorded, and the iteration goes on.
      const subscription = new LlmStreamClient(nc, { tenant }).tenantStreams({
        since: 'all',
        onGap: (gap) => {
          backend.gaps.push({ streamId: gap.streamId, expectedSeq: gap.expectedSeq, at: Date.now() });
        },
      });
      backend.subscriptions.push(subscription);
      backend.loops.push(
        (async () => {
          for await (const event of subscription) {
            const list = backend.seen.get(event.stream_id) ?? [];
            list.push({ seq: event.seq, type: event.type, hash: eventContentHash(event), at: Date.now() });
            backend.seen.set(event.stream_id, list);
          }
        })().catch((error: unknown) => {
          backend.failure = `${tenant}: ${error instanceof Error ? error.message : String(error)}`;
        }),
      );
    }
    return backend;
  }

  async close(): Promise<void> {
    for (const subscription of this.subscriptions) void subscription.close();
    await Promise.allSettled(this.loops);
    await Promise.all(this.connections.map((nc) => nc.close()));
  }
}
