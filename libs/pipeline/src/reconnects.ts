import type { NatsConnection } from '@nats-io/nats-core';

/** What a listener of {@link onConnectionChange} hears: the connection was lost, or is back. */
export type ConnectionChange = 'disconnect' | 'reconnect';

const listeners = new WeakMap<NatsConnection, Set<(change: ConnectionChange) => void>>();

/**
 * Calls `listener` at every disconnect and reconnect of `nc` (a NATS restart, a failover), until the returned
 * function is called. One status watch per connection however many listeners (one per open stream) it serves.
 */
export function onConnectionChange(nc: NatsConnection, listener: (change: ConnectionChange) => void): () => void {
  let registered = listeners.get(nc);
  if (registered === undefined) {
    const created = new Set<(change: ConnectionChange) => void>();
    registered = created;
    listeners.set(nc, created);
    void (async () => {
      for await (const status of nc.status()) {
        if (status.type !== 'disconnect' && status.type !== 'reconnect') continue;
        for (const each of [...created]) each(status.type);
      }
    })();
  }
  const own = registered;
  own.add(listener);
  return () => {
    own.delete(listener);
  };
}
