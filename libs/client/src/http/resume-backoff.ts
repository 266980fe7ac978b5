/** How a broken stream is resumed. */
export interface ResumePolicy {
  /** Resume attempts in a row that may fail before the stream gives up (`resume_exhausted`); an event read resets the count. */
  readonly maxAttempts: number;
  /** Delay before the first attempt; it doubles per failed attempt, with jitter, up to `maxDelayMs`. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export const DEFAULT_RESUME_POLICY: ResumePolicy = { maxAttempts: 8, baseDelayMs: 200, maxDelayMs: 5_000 };

/**
 * The wait before resume attempt `attempt` (1, 2, ...): exponential, half of it random so that clients cut
 * by the same fault do not come back in step, and never shorter than the gateway's `Retry-After`.
 */
export function resumeDelayMs(policy: ResumePolicy, attempt: number, random: number, retryAfterSeconds?: number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  const delay = ceiling / 2 + (ceiling / 2) * random;
  return Math.max(delay, (retryAfterSeconds ?? 0) * 1_000);
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
