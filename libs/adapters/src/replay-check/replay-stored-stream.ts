import { assemble, type ContractEvent, type TraceRecord } from '@llm-stream/contract';
import { outcomeChanges, type OutcomeChange } from './outcome-changes.js';
import { replayTrace, type ReplayTraceOptions } from './replay-trace.js';

/** One stored stream: its raw trace in stored order and the events the pipeline stored for it. */
export interface StoredStream {
  readonly records: readonly (TraceRecord | null)[];
  readonly events: readonly ContractEvent[];
}

/**
 * Re-normalizes a stored stream's raw trace with the given adapters (this build's by default) and compares the
 * outcome with the stored one: an empty list means the adapters reach what the pipeline stored.
 */
export function replayStoredStream(stream: StoredStream, options: ReplayTraceOptions = {}): OutcomeChange[] {
  return outcomeChanges(assemble(stream.events), assemble(replayTrace(stream.records, options).flat()));
}
