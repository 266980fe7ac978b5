import { assemble, type AssembledResult, type ContractEvent, type TraceRecord } from '@llm-stream/contract';
import { outcomeChanges, type OutcomeChange } from './outcome-changes.js';
import { replayTrace, type ReplayTraceOptions } from './replay-trace.js';

/**
 * Why a stored stream has no outcome to compare: it is still running (its trace and events are still
 * arriving), the store holds no raw record of it, or a stored record could not be read back (replaying
 * without it would report a change the adapters did not make).
 */
export type UnreplayableReason = 'running' | 'no_raw_trace' | 'unreadable_record';

/** What a replay check found for one stream. */
export type ReplayVerdict =
  | {
      readonly kind: 'replayed';
      readonly stored: AssembledResult;
      readonly replayed: AssembledResult;
      /** Empty when the replayed outcome is the stored one. */
      readonly changes: readonly OutcomeChange[];
    }
  | { readonly kind: 'unreplayable'; readonly reason: UnreplayableReason };

/** One stored stream as a replay check reads it. */
export interface ReplayCandidate {
  readonly running: boolean;
  readonly records: readonly (TraceRecord | null)[];
  readonly events: readonly ContractEvent[];
}

/** Replays a stored stream unless it has no outcome to compare (see {@link UnreplayableReason}). */
export function replayCheck(candidate: ReplayCandidate, options: ReplayTraceOptions = {}): ReplayVerdict {
  if (candidate.running) return { kind: 'unreplayable', reason: 'running' };
  if (candidate.records.length === 0) return { kind: 'unreplayable', reason: 'no_raw_trace' };
  if (candidate.records.includes(null)) return { kind: 'unreplayable', reason: 'unreadable_record' };
  const stored = assemble(candidate.events);
  const replayed = assemble(replayTrace(candidate.records, options).flat());
  return { kind: 'replayed', stored, replayed, changes: outcomeChanges(stored, replayed) };
}

/** The totals of one provider: streams replayed, of them changed, and streams that could not be replayed. */
export interface ProviderReplayTotals {
  readonly replayed: number;
  readonly changed: number;
  readonly unreplayable: number;
}

/** The counts of a whole replay check: `replayed` = `unchanged` + `changed`. */
export interface ReplayCounts {
  readonly replayed: number;
  readonly unchanged: number;
  readonly changed: number;
  readonly unreplayable: number;
}

/**
 * The totals of a replay check, per provider and overall, as the CLI prints them and the audit API's replay
 * route returns them (one tally, so both count the same way). A stream of no known provider counts as `unknown`.
 */
export class ReplayTally {
  private readonly providers = new Map<string, { replayed: number; changed: number; unreplayable: number }>();

  add(provider: string | null, verdict: ReplayVerdict): void {
    const name = provider ?? 'unknown';
    const totals = this.providers.get(name) ?? { replayed: 0, changed: 0, unreplayable: 0 };
    if (verdict.kind === 'unreplayable') totals.unreplayable += 1;
    else {
      totals.replayed += 1;
      if (verdict.changes.length > 0) totals.changed += 1;
    }
    this.providers.set(name, totals);
  }

  /** Per provider, in name order. */
  byProvider(): [string, ProviderReplayTotals][] {
    return [...this.providers].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, totals]) => [name, { ...totals }]);
  }

  counts(): ReplayCounts {
    let replayed = 0;
    let changed = 0;
    let unreplayable = 0;
    for (const totals of this.providers.values()) {
      replayed += totals.replayed;
      changed += totals.changed;
      unreplayable += totals.unreplayable;
    }
    return { replayed, unchanged: replayed - changed, changed, unreplayable };
  }
}
