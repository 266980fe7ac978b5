import type { NatsConnection } from '@nats-io/nats-core';
import { PublishError } from './publish-error.js';
import { WakeablePause } from './wakeable-pause.js';

/** Waits between two tries of a failed call: `firstMs`, doubling up to `maxMs`. */
export interface RetryDelays {
  readonly firstMs: number;
  readonly maxMs: number;
}

const DEFAULT_DELAYS: RetryDelays = { firstMs: 100, maxMs: 2_000 };

/**
 * Runs a JetStream call until it succeeds: a NATS restart, a pause or a leader change costs time, never the
 * call. It ends only when the connection is closed (the process shuts down) or {@link stop} is called; the
 * call then fails with a PublishError that carries the last failure.
 */
export class RetryLoop {
  private stopped = false;
  private readonly pause = new WakeablePause();

  constructor(
    private readonly nc: NatsConnection,
    private readonly delays: RetryDelays = DEFAULT_DELAYS,
  ) {}

  get running(): boolean {
    return !this.stopped && !this.nc.isClosed();
  }

  stop(): void {
    this.stopped = true;
    this.pause.wake();
  }

  async run<T>(what: string, call: () => Promise<T>): Promise<T> {
    let delay = this.delays.firstMs;
    for (;;) {
      try {
        return await call();
      } catch (cause) {
        if (!this.running) throw new PublishError('not_stored', what, { cause });
      }
      await this.pause.wait(delay);
      delay = Math.min(this.delays.maxMs, delay * 2);
    }
  }
}
