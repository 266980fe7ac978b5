// What the bench scripts share: waiting for a service's HTTP probe, and percentiles of sorted samples.
import { waitFor } from '@llm-stream/testing';

/** Resolves once GET `url` answers 2xx (a service's health or readiness probe). */
export async function waitUntilReady(url, description, timeoutMs = 30_000) {
  const ready = async () => {
    try {
      return (await fetch(url)).ok;
    } catch {
      return false;
    }
  };
  await waitFor(ready, { timeoutMs, description });
}

/** The `p`th percentile of ascending `sorted` samples (NaN for none). */
export function percentile(sorted, p) {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
