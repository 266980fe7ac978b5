import fc from 'fast-check';
import { DEFAULT_RESUME_POLICY, resumeDelayMs, sleep } from './resume-backoff.js';

describe('resumeDelayMs', () => {
  it('doubles from the base delay up to the ceiling, half of it jitter, and waits at least Retry-After', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (attempt, random) => {
        const ceiling = Math.min(DEFAULT_RESUME_POLICY.maxDelayMs, DEFAULT_RESUME_POLICY.baseDelayMs * 2 ** (attempt - 1));
        const delay = resumeDelayMs(DEFAULT_RESUME_POLICY, attempt, random);
        expect(delay).toBeGreaterThanOrEqual(ceiling / 2);
        expect(delay).toBeLessThanOrEqual(ceiling);
        expect(resumeDelayMs(DEFAULT_RESUME_POLICY, attempt, random, 7)).toBe(Math.max(delay, 7_000));
      }),
    );
    expect(resumeDelayMs(DEFAULT_RESUME_POLICY, 1, 0)).toBe(100);
    expect(resumeDelayMs(DEFAULT_RESUME_POLICY, 30, 0.999_999)).toBeCloseTo(5_000, 0);
  });
});

describe('sleep', () => {
  it('rejects with the abort reason as soon as the signal aborts', async () => {
    const abort = new AbortController();
    const waiting = sleep(60_000, abort.signal);
    abort.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    await expect(sleep(60_000, AbortSignal.abort(new Error('already')))).rejects.toThrow('already');
  });
});
