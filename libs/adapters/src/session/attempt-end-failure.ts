import { assertNever, type AttemptEndReason, type FailInput } from '@llm-stream/contract';

/**
 * How an attempt that ended without a terminal signal from the provider ends the stream. A closed socket
 * is never a finished answer: every reason here is a failure; only the adapter's own terminal input is not.
 */
export function attemptEndFailure(reason: AttemptEndReason, detail: string | undefined): FailInput {
  const suffix = detail ? ` (${detail})` : '';
  switch (reason) {
    case 'eof':
      return interrupted('transport_interrupted', `the upstream closed the stream before a terminal signal${suffix}`);
    case 'connect_error':
      return interrupted('transport_interrupted', `could not connect to the upstream${suffix}`);
    case 'transport_error':
      return interrupted('transport_interrupted', `the upstream connection failed before a terminal signal${suffix}`);
    case 'idle_timeout':
      return interrupted('timeout', `no bytes from the upstream within the idle timeout${suffix}`);
    case 'progress_timeout':
      return interrupted('timeout', `no progress from the upstream within the progress timeout${suffix}`);
    case 'cancelled':
      return interrupted('client_cancelled', `the request was cancelled${suffix}`);
    case 'aborted':
      return interrupted('transport_interrupted', `the gateway closed the upstream connection${suffix}`);
    case 'frame_too_large':
      return {
        type: 'fail',
        status: 'failed',
        error: { category: 'protocol_error', retryable: false, provider_code: null, message: `an SSE frame exceeded the size limit${suffix}` },
      };
    default:
      return assertNever(reason, 'attempt end reason');
  }
}

function interrupted(category: 'transport_interrupted' | 'timeout' | 'client_cancelled', message: string): FailInput {
  return { type: 'fail', status: 'interrupted', error: { category, retryable: null, provider_code: null, message } };
}
