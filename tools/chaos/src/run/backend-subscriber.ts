import { connect, type NatsConnection } from '@nats-io/transport-node';
import { LlmStreamClient, type EventSubscription } from '@llm-stream/client';
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

  private constructor(private readonly nc: NatsConnection) {}

  static async start(natsUrl: string, tenants: readonly string[]): Promise<BackendSubscriber> {
    const nc = await connect({ servers: natsUrl, name: 'chaos-backend', maxReconnectAttempts: -1, reconnectTimeWait: 250 });
    const backend = new BackendSubscriber(nc);
    for (const tenant of tenants) {
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
            list.push({ seq: event.seq, type: event.type, at: Date.now() });
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
    await this.nc.close();
  }
}
