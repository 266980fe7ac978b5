import { performance } from 'node:perf_hooks';

/**
 * Wall-clock epoch milliseconds with sub-millisecond resolution, rounded to 3 decimals. It is the same clock
 * synthetic streams stamp into their text (`t=…;`), so a benchmark can subtract it from its own
 * `performance.timeOrigin + performance.now()` on the same machine.
 */
export function epochMs(): number {
  return Math.round((performance.timeOrigin + performance.now()) * 1000) / 1000;
}
