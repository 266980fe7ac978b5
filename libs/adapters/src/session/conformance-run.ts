import type { TranscriptOptions } from './run-transcript.js';

/** The start of the conformance kit's clock: 2026-01-01T00:00:00Z. */
export const CONFORMANCE_EPOCH_MS = 1_767_225_600_000;

/**
 * The settings the conformance kit's `.events.json` files were made with: fixed ids, and a clock that starts
 * at CONFORMANCE_EPOCH_MS and advances 1 ms per trace record. The same body normalized with them gives
 * exactly the kit's events, so a run can be diffed with a golden file.
 */
export function conformanceRunOptions(): Pick<TranscriptOptions, 'streamId' | 'tenant' | 'model' | 'clock'> {
  let now = CONFORMANCE_EPOCH_MS;
  return { streamId: 'st_conformance', tenant: 'conformance', model: 'recorded', clock: () => now++ };
}
