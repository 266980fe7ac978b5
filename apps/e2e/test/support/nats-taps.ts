import { jetstream } from '@nats-io/jetstream';
import { type NatsConnection, type Subscription } from '@nats-io/transport-node';
import { OrderedReader } from '@llm-stream/pipeline';
import { STREAM_NAMES, decodeEventMessage, isTerminalEvent, tenantEventsWildcard, type ContractEvent } from '@llm-stream/contract';
import { waitFor } from '@llm-stream/testing';

/**
 * A backend's view of one tenant: every contract event stored on `llm.events.<tenant>.*` (in the tenant's own
 * account when `nc` is its backend user), read with a
 * JetStream ordered consumer from the start (OrderedReader: it survives a NATS restart), grouped by stream. Each message is schema-checked on decode; a
 * message that fails is kept in `invalid`. Duplicates are kept, so a test can see them.
 */
export class TenantEventLog {
  readonly invalid: string[] = [];
  private readonly byStream = new Map<string, ContractEvent[]>();
  private reader: OrderedReader | undefined;
  private loop: Promise<void> | undefined;

  private constructor(readonly tenant: string) {}

  static start(nc: NatsConnection, tenant: string): TenantEventLog {
    const log = new TenantEventLog(tenant);
    const reader = new OrderedReader(jetstream(nc), STREAM_NAMES.events, tenantEventsWildcard(tenant), { pullExpiresMs: 1_000 });
    log.reader = reader;
    log.loop = (async () => {
      for await (const message of reader) {
        const decoded = decodeEventMessage(message.subject, message.string());
        if (!decoded.ok) {
          log.invalid.push(`${message.subject}: ${decoded.error.message}`);
          continue;
        }
        const { event } = decoded.value;
        const list = log.byStream.get(event.stream_id) ?? [];
        list.push(event);
        log.byStream.set(event.stream_id, list);
      }
    })();
    return log;
  }

  /** The stream's events received so far, in arrival order. */
  events(streamId: string): readonly ContractEvent[] {
    return this.byStream.get(streamId) ?? [];
  }

  streamIds(): string[] {
    return [...this.byStream.keys()];
  }

  /** Resolves with the stream's events once its terminal event has arrived. */
  async waitForTerminal(streamId: string, timeoutMs = 15_000): Promise<readonly ContractEvent[]> {
    await waitFor(() => this.events(streamId).some(isTerminalEvent), {
      timeoutMs,
      description: `the terminal event of ${streamId} on NATS`,
    });
    return this.events(streamId);
  }

  /** Resolves once `predicate` holds for the stream's events so far. */
  async waitUntil(
    streamId: string,
    predicate: (events: readonly ContractEvent[]) => boolean,
    description: string,
    timeoutMs = 15_000,
  ): Promise<readonly ContractEvent[]> {
    await waitFor(() => predicate(this.events(streamId)), { timeoutMs, description: `${description} (${streamId})` });
    return this.events(streamId);
  }

  async close(): Promise<void> {
    this.reader?.close();
    await this.loop;
  }
}

/** One message seen on core NATS: its subject, its headers as text, its payload as text. */
export interface WireMessage {
  readonly subject: string;
  readonly headers: string;
  readonly data: string;
}

/** A core subscription to everything under `llm.>`: raw traces, work items, events, control, leases. */
export class WireTap {
  readonly messages: WireMessage[] = [];
  private readonly subscription: Subscription;

  constructor(nc: NatsConnection, subject = 'llm.>') {
    this.subscription = nc.subscribe(subject, {
      callback: (error, message) => {
        if (error) return;
        const headers = message.headers ? [...message.headers].map(([name, values]) => `${name}: ${values.join(',')}`).join('\n') : '';
        this.messages.push({ subject: message.subject, headers, data: message.string() });
      },
    });
  }

  /** Messages whose subject, headers or payload contain `needle`. */
  containing(needle: string): WireMessage[] {
    return this.messages.filter(
      (message) => message.subject.includes(needle) || message.headers.includes(needle) || message.data.includes(needle),
    );
  }

  close(): void {
    this.subscription.unsubscribe();
  }
}
