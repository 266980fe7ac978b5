import type { JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';

/** What a readiness probe reports of NATS: `ok` for each when both answered. */
export interface NatsReadiness {
  /** `closed`: the connection was closed for good; `unreachable`: no server answered a flush in time. */
  readonly nats: 'ok' | 'closed' | 'unreachable';
  /** `unknown` while NATS itself does not answer; `unreachable`: JetStream did not answer in time (or refused). */
  readonly jetstream: 'ok' | 'unknown' | 'unreachable';
}

/** Default wait of each probe step: well within a Kubernetes probe's timeout. */
const DEFAULT_TIMEOUT_MS = 1_000;

/**
 * Whether NATS is connected (a flush round-trips) and JetStream answers (account info), each within
 * `timeoutMs`. During a reconnect a flush waits for the connection instead of failing, so the timeout is what
 * turns an outage into `unreachable`. Never rejects.
 */
export async function natsReadiness(nc: NatsConnection, jsm: JetStreamManager, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<NatsReadiness> {
  if (nc.isClosed()) return { nats: 'closed', jetstream: 'unknown' };
  try {
    await withTimeout(nc.flush(), timeoutMs);
  } catch {
    return { nats: 'unreachable', jetstream: 'unknown' };
  }
  try {
    await withTimeout(jsm.getAccountInfo(), timeoutMs);
    return { nats: 'ok', jetstream: 'ok' };
  } catch {
    return { nats: 'ok', jetstream: 'unreachable' };
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error('timeout'));
    }, ms);
  });
  return Promise.race([promise, timeout]).finally(() => {
    clearTimeout(timer);
  });
}
