import {
  Injectable,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { ADAPTERS_BUILD } from '@llm-stream/adapters';
import { gatewayLeaseSubject, type CancelRequest, type ReaderNotice } from '@llm-stream/contract';
import { JsonLogger, natsSettings } from '@llm-stream/service-kit';
import { GatewayConfig } from '../config/gateway-config.js';
import { GatewayIdentity } from '../config/gateway-identity.js';
import { GatewayMetrics } from '../metrics/gateway-metrics.js';
import { AdmissionSlots, type Admission, type AdmissionLimits, type Refusal } from './admission.js';
import { EventLoopLag } from './event-loop-lag.js';
import { LeaseRenewer } from './lease-renewer.js';
import { NormalizerBuilds } from './normalizer-builds.js';
import type { StreamRunner } from './stream-runner.js';

/** The slot of an admitted stream while it is opened (see StreamRegistry.admitStream). */
export interface OpeningSlot {
  /** The stream's runner exists (opened, or abandoning a failed opening): it counts from now until its end is stored. */
  hold(runner: StreamRunner): void;
  /** The request ended before a runner was held: the slot is free again. Does nothing once the slot is held. */
  release(): void;
}

/**
 * The streams whose upstream this instance holds. It renews this instance's liveness lease, takes the cancel
 * requests and reader notices other instances send (StreamControlController) to the owning runner, and on
 * SIGTERM stops accepting,
 * lets open streams finish for SHUTDOWN_DRAIN_MS, then ends the rest (they end interrupted at once instead of
 * waiting for the lease to expire). The lease is renewed until the last stream has ended.
 */
@Injectable()
export class StreamRegistry implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly runners = new Map<string, StreamRunner>();
  private readonly followers = new Set<Promise<void>>();
  private accepting = true;
  /** Renews this instance's lease from a worker thread, so a busy event loop cannot make it late. */
  private readonly lease: LeaseRenewer;
  private readonly lag = new EventLoopLag();
  private readonly builds = new NormalizerBuilds(ADAPTERS_BUILD, Date.now());
  readonly limits: AdmissionLimits;
  private readonly slots: AdmissionSlots;

  constructor(
    private readonly config: GatewayConfig,
    identity: GatewayIdentity,
    private readonly metrics: GatewayMetrics,
    private readonly logger: JsonLogger,
  ) {
    this.limits = { maxOpenStreams: config.MAX_OPEN_STREAMS, maxEventLoopLagMs: config.MAX_EVENT_LOOP_LAG_MS };
    this.slots = new AdmissionSlots(
      this.limits,
      () => this.runners.size,
      () => this.lag.lagMs,
    );
    const nats = natsSettings(config);
    this.lease = new LeaseRenewer(
      {
        servers: nats.servers,
        auth: nats,
        name: 'llm-stream-gateway',
        subject: gatewayLeaseSubject(identity.id),
        intervalMs: config.LEASE_INTERVAL_MS,
      },
      () => this.runners.size,
    );
  }

  get isAccepting(): boolean {
    return this.accepting;
  }

  /** Why a new stream would be refused now (admission control), or undefined when it would be admitted. */
  refusal(): Refusal | undefined {
    return this.slots.refusal();
  }

  /**
   * Admission control for a new stream, exact under any burst (see AdmissionSlots): decided and counted before
   * the caller awaits anything. An admitted stream holds its slot until the caller hands it its runner, which
   * then counts until its end is stored, or releases it (the request failed before a runner existed).
   */
  admitStream(): Admission<OpeningSlot> {
    const admission = this.slots.take();
    if (!admission.admitted) return admission;
    const { release } = admission.slot;
    return {
      admitted: true,
      slot: {
        hold: (runner) => {
          // Held before the opening's slot is released: the count never dips in between.
          if (!this.runners.has(runner.streamId)) this.add(runner);
          release();
        },
        release,
      },
    };
  }

  /** Whether a stream's client is served from this instance's own session now (see NormalizerBuilds). */
  sessionServes(): boolean {
    return this.builds.sessionServes(Date.now());
  }

  /**
   * A normalizer replica's presence (NormalizerPresenceController). One that runs another adapters build may
   * store other events than this instance's sessions compute: when it appears, every client of this instance is
   * served from the log from then on; streams opened while it runs are served from the log from the start
   * (sessionServes), so its later announcements change nothing.
   */
  normalizerHeard(replicaId: string, build: number): void {
    const { otherBuild, isNew } = this.builds.heard(replicaId, build, Date.now());
    if (!otherBuild || !isNew) return;
    this.logger.info(OTHER_BUILD_HEARD, { replica: replicaId, replica_adapters: build, adapters: ADAPTERS_BUILD, open_streams: this.runners.size });
    for (const runner of this.runners.values()) runner.serveFromLog();
  }

  /** Whether a normalizer may have declared this instance lost at some time since `since` (see LeaseRenewer). */
  leaseMayHaveLapsedSince(since: number): boolean {
    return this.lease.mayHaveLapsedSince(since);
  }

  local(streamId: string): StreamRunner | undefined {
    return this.runners.get(streamId);
  }

  /**
   * An HTTP client following one of this instance's streams: on shutdown, the HTTP server stays open until it
   * has written the stream's terminal event (or a bounded time), so the client need not resume elsewhere.
   */
  addFollower(following: Promise<void>): void {
    this.followers.add(following);
    const remove = (): void => {
      this.followers.delete(following);
    };
    following.then(remove, remove);
  }

  private add(runner: StreamRunner): void {
    this.runners.set(runner.streamId, runner);
    this.metrics.openStreams.set(this.runners.size);
    void runner.finished.finally(() => {
      this.runners.delete(runner.streamId);
      this.metrics.openStreams.set(this.runners.size);
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    this.lag.start();
    await this.lease.start();
  }

  /**
   * Another instance asks to cancel a stream (its client sent DELETE there). True when this instance holds the
   * stream for that tenant and cancelled it; false leaves the request to whichever instance holds it.
   */
  cancelRequested(streamId: string, request: CancelRequest): boolean {
    const runner = this.runners.get(streamId);
    if (runner?.spec.tenant !== request.tenant) return false;
    runner.cancel('client_request');
    return true;
  }

  /** A reader of one of this instance's streams attached to or left another instance. */
  readerNoticed(streamId: string, notice: ReaderNotice): void {
    const runner = this.runners.get(streamId);
    if (runner?.spec.tenant !== notice.tenant) return;
    switch (notice.action) {
      case 'attach':
        runner.readerAttached();
        return;
      case 'detach':
        runner.readerDetached();
        return;
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.accepting = false;
    const open = [...this.runners.values()];
    this.logger.info('draining', { open_streams: open.length, drain_ms: this.config.SHUTDOWN_DRAIN_MS });
    const drained = await within(this.config.SHUTDOWN_DRAIN_MS, Promise.all(open.map((runner) => runner.finished)));
    if (!drained) {
      const left = [...this.runners.values()];
      this.logger.warn('drain time is up: ending open streams', { open_streams: left.length });
      for (const runner of left) runner.shutdown();
      await Promise.all(left.map((runner) => runner.finished));
    }
    // The terminal events are on their way through the normalizer: let the clients read them.
    const followers = [...this.followers];
    if (followers.length > 0 && !(await within(FOLLOWERS_WAIT_MS, Promise.all(followers)))) {
      this.logger.warn('clients still reading at shutdown', { followers: this.followers.size });
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.lag.stop();
    await this.lease.stop();
  }
}

const OTHER_BUILD_HEARD = 'a normalizer replica runs another adapters build: the clients of this gateway are served from the stored log while it runs';

/** How long a shutdown waits for the clients of its ended streams to read their terminal events. */
const FOLLOWERS_WAIT_MS = 5_000;

/** True when `work` settles within `ms`. */
async function within(ms: number, work: Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => {
      resolve(false);
    }, ms);
  });
  try {
    return await Promise.race([work.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
