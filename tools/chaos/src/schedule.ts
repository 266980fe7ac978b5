import type { FaultKind, PlannedFault } from './fault-kinds.js';
import { Random } from './random.js';

/** Hold times the issue sets: a NATS pause of 5-30 s, an overload burst of 10 s, a reader stopped for 30 s. */
function holdMs(kind: FaultKind, random: Random): number {
  switch (kind) {
    case 'nats-pause':
      return random.int(5_000, 30_000);
    case 'overload':
      return 10_000;
    case 'slow-reader':
      return 30_000;
    case 'kill-gateway':
    case 'replace-gateway':
    case 'kill-normalizer':
    case 'kill-audit-log':
    case 'nats-kill':
    case 'nats-term':
    case 'postgres-restart':
      return 0;
    default:
      return kind satisfies never;
  }
}

/**
 * One fault every `everyMs` (counted from the end of the previous fault's hold, so faults never overlap) up to
 * `durationMs`, kinds drawn from `kinds` by a PRNG seeded with `seed` (the same arguments give the same
 * schedule). The first pass takes every kind once, in a shuffled order, so a short run still meets each kind.
 */
export function buildSchedule(seed: number, durationMs: number, everyMs: number, kinds: readonly FaultKind[]): PlannedFault[] {
  const random = new Random(seed ^ 0x5eed);
  const plan: PlannedFault[] = [];
  const firstPass = [...kinds].sort(() => random.next() - 0.5);
  for (let atMs = everyMs; atMs < durationMs && kinds.length > 0; ) {
    const kind = firstPass.shift() ?? random.pick(kinds);
    const fault = { atMs, kind, target: random.int(0, 1), holdMs: holdMs(kind, random) };
    plan.push(fault);
    atMs += fault.holdMs + everyMs;
  }
  return plan;
}

export function describeFault(fault: PlannedFault): string {
  const hold = fault.holdMs > 0 ? ` for ${(fault.holdMs / 1000).toFixed(1)} s` : '';
  const target = fault.kind === 'kill-gateway' || fault.kind === 'replace-gateway' || fault.kind === 'kill-normalizer' ? ` #${fault.target + 1}` : '';
  return `t=${(fault.atMs / 1000).toFixed(0)}s ${fault.kind}${target}${hold}`;
}
