import type { FaultKind } from '../fault-kinds.js';
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- the TSDoc link
import type { SLOWDOWN_GAP_MS } from './check.js';

/** One defect of one stream, named so the report says what broke where. */
export interface Finding {
  readonly key: string;
  readonly streamId: string | null;
  readonly check: CheckName;
  readonly detail: string;
}

export type CheckName =
  | 'missing-terminal'
  | 'duplicate-terminal'
  | 'wrong-outcome'
  | 'client-gap'
  | 'client-duplicate'
  | 'backend-gap'
  | 'backend-duplicate'
  /** A client received an event the stored log does not hold at its seq with the same content. */
  | 'client-not-logged'
  /** The backend subscriber received an event the stored log does not hold at its seq with the same content. */
  | 'backend-not-logged'
  | 'stored-gap'
  | 'stored-duplicate'
  | 'lost-frames'
  | 'audit-missing-events'
  | 'audit-verify-failed'
  | 'slowed-by-slow-reader';

/**
 * A row of the closing table: one fault kind, the streams open during it (`streamsHit`, which overlap between
 * rows), and the streams with each defect, each stream charged to the first fault it was open during, so the
 * defect columns add up to the `all` row. `none`: streams no fault touched.
 */
export interface FaultRow {
  readonly kind: FaultKind | 'none' | 'all';
  readonly runs: number;
  readonly streamsHit: number;
  readonly lostFrames: number;
  readonly missingTerminals: number;
  readonly gaps: number;
  readonly duplicates: number;
  readonly wrongOutcomes: number;
  /** Streams where a client or the backend received an event the stored log does not hold as received. */
  readonly notLogged: number;
  /** From the end of the fault to each hit stream's next client event, ms; null without a sample. */
  readonly recoveryP50Ms: number | null;
  readonly recoveryMaxMs: number | null;
}

/** What {@link check} concludes about a run. `ok` is false when anything was lost, duplicated, left open or ended wrongly. */
export interface Report {
  readonly ok: boolean;
  readonly seed: number;
  readonly durationMs: number;
  readonly streamsStarted: number;
  /** Client streams that got a stream id (the others were refused or never answered). */
  readonly streamsAccepted: number;
  readonly exactlyOneTerminal: number;
  readonly outcomeAsExpected: number;
  /** Interruptions a fault explains (the stream's gateway died while it ran); counted as expected outcomes. */
  readonly explainedInterruptions: number;
  readonly framesSent: number;
  readonly framesLost: number;
  readonly auditMissingEvents: number;
  readonly verifyFailures: number;
  /** Events the clients and the backend subscriber received that the stored log does not hold as received. */
  readonly notLoggedEvents: { readonly client: number; readonly backend: number };
  /** Requests answered with an error status, by status ("none": no response headers at all). */
  readonly refusals: Readonly<Record<string, number>>;
  /**
   * Client streams that went more than {@link SLOWDOWN_GAP_MS} without an event while no fault was under way
   * (a stall under plain load; an overload lasts until its last burst stream ended), and the longest such gap.
   * A figure, not a failure: the exit criteria are losses, duplicates, missing terminals and wrong
   * outcomes.
   */
  readonly stalls: { readonly streams: number; readonly maxGapMs: number };
  readonly byFault: readonly FaultRow[];
  readonly findings: readonly Finding[];
  /** Count of findings per check. */
  readonly counts: Readonly<Record<CheckName, number>>;
}
