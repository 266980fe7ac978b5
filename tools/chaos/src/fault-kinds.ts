/**
 * The faults a chaos run can inject, all from outside the services (signals, processes, load):
 * - `kill-gateway`, `kill-normalizer`, `kill-audit-log`: kill -9 of one instance, then a restart in place (a
 *   gateway keeps its GATEWAY_ID, as a container restarted in its Kubernetes pod keeps the pod name);
 * - `replace-gateway`: kill -9 of a gateway and a new instance with a new GATEWAY_ID on its port (a new pod);
 * - `nats-kill`, `nats-term`: nats-server killed with SIGKILL / stopped with SIGTERM, restarted on the same store;
 * - `nats-pause`: SIGSTOP for 5-30 s, then SIGCONT;
 * - `postgres-restart`: the audit log's PostgreSQL killed and restarted (runs with `--store postgres` only);
 * - `overload`: a burst of extra short streams (2,000 by default) for 10 s;
 * - `slow-reader`: one client stops reading its response for 30 s.
 */
export const FAULT_KINDS = [
  'kill-gateway',
  'replace-gateway',
  'kill-normalizer',
  'kill-audit-log',
  'nats-kill',
  'nats-term',
  'nats-pause',
  'postgres-restart',
  'overload',
  'slow-reader',
] as const;

export type FaultKind = (typeof FAULT_KINDS)[number];

export function isFaultKind(value: string): value is FaultKind {
  return (FAULT_KINDS as readonly string[]).includes(value);
}

/** One planned fault: when (ms after the load started), what, and on which instance. */
export interface PlannedFault {
  readonly atMs: number;
  readonly kind: FaultKind;
  /** Which instance of a replicated service (0 or 1); 0 for the others. */
  readonly target: number;
  /** How long the fault lasts before the repair (pause, slow reader, overload); 0 for a crash and restart. */
  readonly holdMs: number;
}

/** One fault as it happened. */
export interface FaultRecord {
  readonly kind: FaultKind;
  /** The instance hit: a gateway id, a service name, `nats`, `postgres`, a client key. */
  readonly target: string;
  /** Epoch ms: the fault began (signal sent, burst started). */
  readonly startedAt: number;
  /** Epoch ms: the repair was done (restarted and ready, resumed, burst over). */
  readonly endedAt: number;
  /** Human detail: a failed restart, how many burst requests went out. */
  readonly detail: string;
}
