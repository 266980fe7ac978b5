import type { NatsConnectionAuth } from '@llm-stream/pipeline';

/** What the lease worker is started with. */
export interface LeaseWorkerData {
  readonly servers: readonly string[];
  /** The gateway's NATS user and TLS settings (the lease is published as the gateway). */
  readonly auth?: NatsConnectionAuth;
  /** The connection's name prefix (the service's). */
  readonly name: string;
  /** `llm.gateways.lease.<instance id>`. */
  readonly subject: string;
  readonly intervalMs: number;
  /** The lease lapses when the main thread has not beaten for this long. */
  readonly mainStallMs: number;
}

/** The worker's word after each renewal the server confirmed (a flush after the publish answered). */
export interface LeaseHeard {
  readonly kind: 'heard';
  /** When the confirmation arrived (ms, Date.now). */
  readonly at: number;
}

/** What the worker posts: `ready` once (connected, first renewal sent), then one {@link LeaseHeard} per confirmation. */
export type LeaseWorkerMessage = 'ready' | LeaseHeard;

/** The main thread's beat (one per lease interval): it is alive, and how many streams it holds. */
export interface MainThreadBeat {
  readonly openStreams: number;
}

/**
 * How long a main thread may be busy before its lease lapses: far beyond any burst the gateway's admission
 * control lets in (its event-loop lag bound is 500 ms by default), short enough that a livelocked gateway's
 * streams end within about half a minute.
 */
export const MAIN_STALL_MS = 30_000;
