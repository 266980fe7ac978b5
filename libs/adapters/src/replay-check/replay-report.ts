import type { AssembledResult } from '@llm-stream/contract';
import type { OutcomeChange } from './outcome-changes.js';
import type { ProviderReplayTotals, ReplayCounts, UnreplayableReason } from './replay-tally.js';

// The audit API's replay answers (apps/audit-log's replay routes), beside the replay check they report: one
// definition for the service and its readers (the console).

/**
 * `GET /v1/streams/{id}/replay`: the stream's stored raw trace re-normalized with this build's adapters.
 * `changes` is empty when the replayed outcome is the stored one; `replayed` is null (and `unreplayable` says
 * why) when the stream has no outcome to compare.
 */
export interface StreamReplay {
  readonly stream_id: string;
  readonly provider: string | null;
  readonly model: string | null;
  /** The outcome of the stored events (the events folded as `llm-stream assemble` folds them). */
  readonly stored: AssembledResult;
  /** The outcome of the replayed events; null when the stream could not be replayed. */
  readonly replayed: AssembledResult | null;
  readonly changes: readonly OutcomeChange[];
  readonly unreplayable: UnreplayableReason | null;
  /**
   * Some frame was stored with credential-shaped values replaced: the replay read other bytes than the
   * normalizer did, so a change may be the redaction's, not the adapters'.
   */
  readonly redacted: boolean;
}

/** One changed stream of `GET /v1/replay`: what changed, with both values. */
export interface ChangedStream {
  readonly stream_id: string;
  readonly provider: string | null;
  readonly model: string | null;
  readonly redacted: boolean;
  readonly changes: readonly OutcomeChange[];
}

/** One stream of `GET /v1/replay` that could not be replayed, and why. */
export interface UnreplayableStream {
  readonly stream_id: string;
  readonly provider: string | null;
  readonly reason: UnreplayableReason;
}

/**
 * `GET /v1/replay?from=&to=&provider=&status=&...&cursor=&limit=`: one page of the tenant's streams (the list
 * route's filters and order) replayed with this build's adapters. Counts and totals are the page's; a
 * deployment pipeline follows `next_cursor` until null and sums them (what `llm-stream replay` does).
 */
export interface ReplayReport {
  readonly counts: ReplayCounts;
  /** Per provider (`unknown` for a stream of none), in name order. */
  readonly by_provider: Readonly<Record<string, ProviderReplayTotals>>;
  readonly changed: readonly ChangedStream[];
  readonly unreplayable: readonly UnreplayableStream[];
  readonly next_cursor: string | null;
}
