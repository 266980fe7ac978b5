import { createInbox, type Msg, type NatsConnection } from '@nats-io/nats-core';
import { onConnectionChange } from '../reconnects.js';
import { readPubAck, type PubAck } from './pub-ack.js';

/** A publisher whose messages' acks arrive through an {@link AckInbox}. */
export interface AckTarget {
  /** JetStream answered the publish of the message at `position`. */
  acked(position: number, ack: PubAck): void;
  /** A periodic look at what is still unacked (`now` in ms). */
  sweep(now: number): void;
  /** The connection is back after a disconnect: whatever is unacked may have been lost on the way. */
  reconnected(): void;
  /** The connection closed for good (a shutdown): no ack can come any more. */
  close(): void;
}

/** How often the inbox's one timer looks at the publishers that wait for acks (ms). */
const SWEEP_MS = 250;

const inboxes = new WeakMap<NatsConnection, AckInbox>();

/**
 * One wildcard subscription per connection that receives the PubAcks of every publisher on it. Each message is
 * core-published with a reply subject `<inbox>.<publisher>.<position>`; JetStream answers there once it has
 * stored the message, so an ack costs one delivery and no promise, timer or subscription per message. One timer
 * and one reconnect listener per connection serve every publisher that has messages in flight, so an idle
 * stream costs neither.
 */
export class AckInbox {
  private readonly prefix: string;
  private readonly targets = new Map<string, AckTarget>();
  /** Publishers with messages in flight: the only ones the sweep and a reconnect visit. */
  private readonly waiting = new Set<AckTarget>();
  private nextId = 0;
  private sweeper: NodeJS.Timeout | undefined;

  /** The inbox of `nc`, created on first use. */
  static of(nc: NatsConnection): AckInbox {
    let inbox = inboxes.get(nc);
    if (inbox === undefined) {
      inbox = new AckInbox(nc);
      inboxes.set(nc, inbox);
    }
    return inbox;
  }

  private constructor(private readonly nc: NatsConnection) {
    // A platform user may only subscribe under its own inbox prefix (see nats-identities.ts).
    this.prefix = createInbox(connectionInboxPrefix(nc));
    nc.subscribe(`${this.prefix}.*.*`, {
      callback: (error, message) => {
        if (error === null) this.route(message);
      },
    });
    onConnectionChange(nc, (change) => {
      if (change === 'reconnect') for (const target of [...this.waiting]) target.reconnected();
    });
    void nc.closed().then(() => {
      for (const target of [...this.targets.values()]) target.close();
    });
  }

  /** Registers a publisher; the returned id goes into its reply subjects (see {@link replySubject}). */
  register(target: AckTarget): string {
    this.nextId += 1;
    const id = this.nextId.toString(36);
    this.targets.set(id, target);
    return id;
  }

  unregister(id: string): void {
    const target = this.targets.get(id);
    this.targets.delete(id);
    if (target !== undefined) this.idle(target);
  }

  replySubject(id: string, position: number): string {
    return `${this.prefix}.${id}.${String(position)}`;
  }

  /** The publisher has messages in flight: the sweep visits it until {@link idle}. */
  busy(target: AckTarget): void {
    this.waiting.add(target);
    if (this.sweeper !== undefined || this.nc.isClosed()) return;
    this.sweeper = setInterval(() => {
      this.sweep();
    }, SWEEP_MS);
    this.sweeper.unref();
  }

  idle(target: AckTarget): void {
    this.waiting.delete(target);
    if (this.waiting.size > 0 || this.sweeper === undefined) return;
    clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  private sweep(): void {
    const now = Date.now();
    for (const target of [...this.waiting]) target.sweep(now);
  }

  private route(message: Msg): void {
    const tail = message.subject.slice(this.prefix.length + 1);
    const dot = tail.indexOf('.');
    const target = this.targets.get(tail.slice(0, dot));
    const position = Number(tail.slice(dot + 1));
    if (target !== undefined && Number.isSafeInteger(position)) target.acked(position, readPubAck(message));
  }
}

/** The inbox prefix the connection was made with (nats.js keeps it in its options), or the default. */
function connectionInboxPrefix(nc: NatsConnection): string | undefined {
  const options = (nc as { readonly options?: { readonly inboxPrefix?: unknown } }).options;
  return typeof options?.inboxPrefix === 'string' ? options.inboxPrefix : undefined;
}
