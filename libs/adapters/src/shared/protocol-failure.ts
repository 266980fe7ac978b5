import type { FailInput, StreamErrorInfo } from '@llm-stream/contract';

/** A `fail` input for bytes that do not fit the provider's protocol: failed, `protocol_error`, not retryable. */
export function protocolFailure(message: string): FailInput {
  return {
    type: 'fail',
    status: 'failed',
    error: { category: 'protocol_error', retryable: false, provider_code: null, message },
  };
}

/**
 * A `fail` input for a response the provider reports cancelled before its result: interrupted,
 * `client_cancelled`, and nobody can say whether a retry would succeed.
 */
export function providerCancelled(providerCode: string | null, message: string): FailInput {
  return { type: 'fail', status: 'interrupted', error: { category: 'client_cancelled', retryable: null, provider_code: providerCode, message } };
}

/** A `fail` input for an error the provider reported. */
export function providerFailure(error: StreamErrorInfo): FailInput {
  return { type: 'fail', status: 'failed', error };
}
