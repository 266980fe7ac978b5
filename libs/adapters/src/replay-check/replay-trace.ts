import type { ContractEvent, ProviderName, TraceRecord } from '@llm-stream/contract';
import type { ProviderAdapter } from '../adapter.js';
import { createProviderAdapter } from '../adapter-registry.js';
import { NormalizerSession } from '../session/normalizer-session.js';

/** The adapter of one upstream attempt of a provider: what the normalizer's session asks for. */
export type ProviderAdapterFactory = (provider: ProviderName) => ProviderAdapter;

export interface ReplayTraceOptions {
  /**
   * The adapter of each upstream attempt (default: this build's registry). A replay check passes another one
   * to see what a changed adapter would make of recorded traffic.
   */
  readonly createAdapter?: ProviderAdapterFactory;
}

/**
 * Replays one stream's stored raw trace, in stored order, through the same deterministic NormalizerSession
 * the normalizer runs, and returns the events each record produced (an empty list for a record that could not
 * be read back, given as null). Events carry the receive time, not the raw_seq, so which record produced which
 * event is known only by replaying; the flattened lists are the stream's events.
 */
export function replayTrace(records: readonly (TraceRecord | null)[], options: ReplayTraceOptions = {}): ContractEvent[][] {
  const session = new NormalizerSession({ createAdapter: options.createAdapter ?? createProviderAdapter });
  return records.map((record) => (record === null ? [] : session.accept(record)));
}
