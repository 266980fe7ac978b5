import { Inject, Injectable } from '@nestjs/common';
import type { JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { JETSTREAM_MANAGER, NATS_CONNECTION } from '../nats/nats-tokens.js';

/** Whether NATS is connected and JetStream answers (within a short timeout). */
@Injectable()
export class NatsHealth {
  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(JETSTREAM_MANAGER) private readonly jsm: JetStreamManager,
  ) {}

  async check(): Promise<Record<string, string>> {
    if (this.nc.isClosed()) return { nats: 'closed', jetstream: 'unknown' };
    try {
      await withTimeout(this.nc.flush(), 1_000);
    } catch {
      return { nats: 'unreachable', jetstream: 'unknown' };
    }
    try {
      await withTimeout(this.jsm.getAccountInfo(), 1_000);
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
