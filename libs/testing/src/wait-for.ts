import { setTimeout as delay } from 'node:timers/promises';
import { inspect } from 'node:util';

/** Options of {@link waitFor}. */
export interface WaitForOptions {
  /** Give up after this many milliseconds (default 10 000). */
  readonly timeoutMs?: number;
  /** Pause between two probes in milliseconds (default 50). */
  readonly intervalMs?: number;
  /** What is awaited, in words; it opens the timeout message ("the gateway to answer /health"). */
  readonly description?: string;
  /** Stops the polling: the wait rejects with the signal's reason (e.g. the awaited process died, waiting is moot). */
  readonly signal?: AbortSignal;
}

/** Rejection of {@link waitFor} when the condition did not hold in time. */
export class WaitForTimeoutError extends Error {
  readonly code = 'WAIT_FOR_TIMEOUT';
  override readonly name = 'WaitForTimeoutError';

  constructor(
    message: string,
    /** The last error the probe threw, if its last attempt threw. */
    override readonly cause: unknown,
  ) {
    super(message);
  }
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_INTERVAL_MS = 50;

/** Sentinel for a probe attempt that outlived the deadline (a probe can hang, e.g. a stalled HTTP request). */
const ATTEMPT_TIMED_OUT = Symbol('attempt timed out');

/**
 * Settles with `attempt`, or with ATTEMPT_TIMED_OUT after `ms`, or rejects when `signal` aborts; the timer and the
 * abort listener are always removed, so a finished wait holds nothing that keeps the process alive.
 */
function raceDeadline<T>(attempt: Promise<T>, ms: number, signal?: AbortSignal): Promise<T | typeof ATTEMPT_TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort = (): void => undefined;
  const deadline = new Promise<typeof ATTEMPT_TIMED_OUT>((resolve, reject) => {
    timer = setTimeout(() => {
      resolve(ATTEMPT_TIMED_OUT);
    }, ms);
    onAbort = () => {
      // The caller rethrows the signal's own reason (throwIfAborted); this only ends the race.
      reject(new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([attempt, deadline]).finally(() => {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  });
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : inspect(error);
}

/**
 * Polls `probe` until it returns a truthy value (a probe that throws counts as "not yet") and resolves with
 * that value. Tests wait for conditions with this instead of sleeping for a fixed time.
 *
 * Rejects with a {@link WaitForTimeoutError} whose message names `description` and the last error the probe
 * threw (or the last falsy value it returned), so a failing test says what it was waiting for.
 *
 * @example
 * const row = await waitFor(() => findRow(id), { description: `row ${id} to be written`, timeoutMs: 5_000 });
 */
export async function waitFor<T>(
  probe: () => T | Promise<T>,
  options: WaitForOptions = {},
): Promise<NonNullable<T>> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
  const description = options.description ?? 'a condition';
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown = undefined;
  let lastOutcome = 'the probe never completed';
  const { signal } = options;

  for (;;) {
    signal?.throwIfAborted();
    try {
      // Promise.resolve().then() turns a synchronous throw into a rejection, so both are handled alike.
      const value = await raceDeadline(Promise.resolve().then(probe), Math.max(deadline - Date.now(), 0), signal);
      if (value === ATTEMPT_TIMED_OUT) {
        lastOutcome = 'the last probe was still pending';
      } else if (value) {
        return value;
      } else {
        lastError = undefined;
        lastOutcome = `the last probe returned ${inspect(value)}`;
      }
    } catch (error: unknown) {
      signal?.throwIfAborted();
      lastError = error;
      lastOutcome = `the last probe threw: ${describeError(error)}`;
    }
    const leftMs = deadline - Date.now();
    if (leftMs <= 0) {
      throw new WaitForTimeoutError(`Timed out after ${timeoutMs} ms waiting for ${description}; ${lastOutcome}`, lastError);
    }
    try {
      await delay(Math.min(intervalMs, leftMs), undefined, signal === undefined ? {} : { signal });
    } catch (error: unknown) {
      // An aborted pause rejects with a generic AbortError; the caller wants the signal's own reason.
      signal?.throwIfAborted();
      throw error;
    }
  }
}
