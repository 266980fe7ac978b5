import type { NatsConnectionAuth } from '../auth/nats-connection-auth.js';

/** What the work-progress thread is started with. */
export interface WorkProgressThreadData {
  /** Connection options for the thread's own NATS connection (plain values: they cross the thread boundary). */
  readonly servers: readonly string[];
  /** The service's NATS user and TLS settings (the thread acks and answers as the service). */
  readonly auth?: NatsConnectionAuth;
  /** The connection's name (the server's `/connz` shows it). */
  readonly name: string;
  /** How often every held item is told to JetStream as still in progress (`+WPI`): a third of its ack wait. */
  readonly intervalMs: number;
  /** Progress stops (and the items go back to JetStream after their ack wait) when the main thread has not beaten for this long. */
  readonly mainStallMs: number;
  /** The wildcard the thread answers holder queries on, e.g. `llm.normalizers.holder.*` (the last token is the item's key). */
  readonly holderQueries: string;
}

/** From the main thread to the progress thread. */
export type ToProgressThread =
  /** The main thread holds the item `key` in progress; `reply` is the reply subject of its latest delivery. */
  | { readonly kind: 'hold'; readonly key: string; readonly reply: string }
  /** The item was acked, handed back or given up: no more progress for it. */
  | { readonly kind: 'release'; readonly key: string }
  /** The main thread is alive. */
  | { readonly kind: 'beat' };

/** From the progress thread to the main thread: it is connected and answers holder queries. */
export interface ProgressThreadReady {
  readonly kind: 'ready';
}

/** The body of a holder query's answer: the key is held by the process that answers. */
export const HELD_ANSWER = 'held';

/**
 * How long a main thread may be busy before its items lapse: far beyond any burst a normalizer takes (its
 * streams' records queue in its socket meanwhile), short enough that a livelocked process's streams move to
 * another replica within about half a minute.
 */
export const MAIN_STALL_MS = 30_000;
