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

/** A service's readiness probe of its NATS connection and of JetStream behind it. */
export class NatsReadinessProbe {
  constructor(
    private readonly nc: NatsConnection,
    private readonly jsm: JetStreamManager,
    /** How long each step may take before it counts as unreachable. */
    private readonly timeoutMs = DEFAULT_TIMEOUT_MS,
  ) {}

  /**
   * Whether NATS is connected (a flush round-trips) and JetStream answers (account info), each within the
   * timeout. During a reconnect a flush waits for the connection instead of failing, so the timeout is what
   * turns an outage into `unreachable`. Never rejects.
   */
  async check(): Promise<NatsReadiness> {
    if (this.nc.isClosed()) return { nats: 'closed', jetstream: 'unknown' };
    try {
      await withTimeout(this.nc.flush(), this.timeoutMs);
    } catch {
      return { nats: 'unreachable', jetstream: 'unknown' };
    }
    try {
      await withTimeout(this.jsm.getAccountInfo(), this.timeoutMs);
      return { nats: 'ok', jetstream: 'ok' };
    } catch {
      return { nats: 'ok', jetstream: 'unreachable' };
    }
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
