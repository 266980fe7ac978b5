import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { NormalizerConfig } from '../config/normalizer-config.js';
import { NATS_CONNECTION } from '@llm-stream/nest-kit';
import { JsonLogger } from '@llm-stream/service-kit';
import { NormalizerMetrics } from '../metrics/normalizer-metrics.js';
import { GatewayLeases } from './gateway-leases.js';

/**
 * Keeps every gateway instance's lease renewals (core NATS, `llm.gateways.lease.<gateway_id>`, taken by
 * GatewayLeaseController), and watches whether
 * this replica could hear them at all: its connection's disconnects and reconnects, and a round trip to the
 * server (a PING) four times per lease timeout, which a paused or swamped server answers late.
 */
@Injectable()
export class GatewayLeaseService implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly leases: GatewayLeases;
  private pruning: NodeJS.Timeout | undefined;
  private probing: NodeJS.Timeout | undefined;
  private readonly probeIntervalMs: number;
  private probeInFlight = false;

  constructor(
    config: NormalizerConfig,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly metrics: NormalizerMetrics,
    private readonly logger: JsonLogger,
  ) {
    this.leases = new GatewayLeases(config.GATEWAY_LEASE_TIMEOUT_MS, Date.now());
    this.probeIntervalMs = Math.max(50, Math.floor(config.GATEWAY_LEASE_TIMEOUT_MS / 4));
  }

  onApplicationBootstrap(): void {
    void this.watchConnection();
    this.probing = setInterval(() => {
      this.probe();
    }, this.probeIntervalMs);
    this.pruning = setInterval(() => {
      this.leases.prune(Date.now());
    }, 60_000);
  }

  onApplicationShutdown(): void {
    clearInterval(this.pruning);
    clearInterval(this.probing);
  }

  /** A gateway instance renewed its lease. */
  renewed(gatewayId: string): void {
    this.leases.renew(gatewayId, Date.now());
  }

  /** One PING at a time; while it is unanswered for long, no lease expires (see GatewayLeases). */
  private probe(): void {
    if (this.nc.isClosed() || this.probeInFlight) return;
    this.probeInFlight = true;
    const startedAt = Date.now();
    this.leases.probeStarted(startedAt);
    const answered = (ok: boolean): void => {
      this.probeInFlight = false;
      const now = Date.now();
      if (!this.leases.probeAnswered(now, ok)) return;
      // Every doubt postpones the end of a dead gateway's streams (GatewayLeases): counted, so a late end can be
      // traced to it.
      this.metrics.leaseDoubts.inc();
      this.logger.warn('a round trip to NATS failed or came late: no gateway lease expires for a while', {
        round_trip_ms: now - startedAt,
        answered: ok,
      });
    };
    this.nc.flush().then(
      () => {
        answered(true);
      },
      () => {
        answered(false);
      },
    );
  }

  private async watchConnection(): Promise<void> {
    for await (const status of this.nc.status()) {
      if (status.type === 'disconnect' || status.type === 'reconnect') this.leases.unheard(Date.now());
    }
  }
}
