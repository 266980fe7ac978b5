import type { ProviderName } from '@llm-stream/contract';
import { createProviderAdapter } from './adapter-registry.js';
import { runTranscript, type TranscriptOptions, type TranscriptResult } from './session/run-transcript.js';

/**
 * Normalizes one recorded response body in process, exactly as the pipeline does live, with the provider's
 * adapter from the registry. `body` may be one buffer or a sequence of chunks: chunk boundaries never change
 * the result.
 */
export function normalizeTranscript(
  provider: ProviderName,
  body: string | Uint8Array | Iterable<string | Uint8Array>,
  options: Omit<TranscriptOptions, 'createAdapter'> = {},
): TranscriptResult {
  return runTranscript(provider, body, { ...options, createAdapter: createProviderAdapter });
}
