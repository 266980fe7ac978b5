import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { SUBJECT_ROOTS } from '@llm-stream/contract';
import { NormalizerConfig } from '../config/normalizer-config.js';
import { NATS_CONNECTION } from '../nats/nats-tokens.js';
import { GatewayLeases } from './gateway-leases.js';

/** Listens to every gateway's lease renewals (core NATS, `llm.gateways.lease.<gateway_id>`). */
@Injectable()
export class GatewayLeaseService implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly leases: GatewayLeases;
  private subscription: Subscription | undefined;
  private pruning: NodeJS.Timeout | undefined;

  constructor(
    config: NormalizerConfig,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
  ) {
    this.leases = new GatewayLeases(config.GATEWAY_LEASE_TIMEOUT_MS, Date.now());
  }

  onApplicationBootstrap(): void {
    const prefix = `${SUBJECT_ROOTS.gatewayLease}.`;
    this.subscription = this.nc.subscribe(`${prefix}*`, {
      callback: (error, message) => {
        if (error) return;
        this.leases.renew(message.subject.slice(prefix.length), Date.now());
      },
    });
    this.pruning = setInterval(() => {
      this.leases.prune(Date.now());
    }, 60_000);
  }

  onApplicationShutdown(): void {
    clearInterval(this.pruning);
    this.subscription?.unsubscribe();
  }
}
