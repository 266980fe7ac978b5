import { randomBytes } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { ADAPTERS_BUILD } from '@llm-stream/adapters';
import { NORMALIZER_PRESENCE_INTERVAL_MS, encodeNormalizerPresence, normalizerPresenceSubject } from '@llm-stream/contract';
import { NATS_CONNECTION } from '@llm-stream/nest-kit';

/**
 * Says on core NATS, at start and every NORMALIZER_PRESENCE_INTERVAL_MS, that this replica runs and which
 * adapters build it runs: a gateway serves its own clients from its own session only while every normalizer
 * runs the gateway's build (the events it computes are then the ones this replica stores).
 */
@Injectable()
export class NormalizerPresenceService implements OnApplicationBootstrap, OnApplicationShutdown {
  /** One subject token, random per process start. */
  readonly replicaId = `nz-${randomBytes(6).toString('hex')}`;
  private timer: NodeJS.Timeout | undefined;

  constructor(@Inject(NATS_CONNECTION) private readonly nc: NatsConnection) {}

  onApplicationBootstrap(): void {
    this.announce();
    this.timer = setInterval(() => {
      this.announce();
    }, NORMALIZER_PRESENCE_INTERVAL_MS);
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  private announce(): void {
    if (this.nc.isClosed()) return;
    this.nc.publish(normalizerPresenceSubject(this.replicaId), encodeNormalizerPresence({ adapters: ADAPTERS_BUILD }));
  }
}
