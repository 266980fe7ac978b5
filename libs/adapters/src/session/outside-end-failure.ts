import { assertNever, type FailInput } from '@llm-stream/contract';

/** Why a stream ends for a reason outside the upstream's control. */
export type OutsideEnd =
  | { readonly cause: 'client_request' | 'client_disconnected' | 'gateway_lost' | 'gateway_shutdown' | 'trace_backlog' | 'not_opened' }
  /** The raw trace has a gap that did not fill while `held` later records waited. */
  | { readonly cause: 'raw_trace_gap'; readonly missing: number; readonly held: number };

/**
 * How a stream ends when neither the provider nor the transport said so: the client cancelled, or the
 * gateway holding the upstream connection is gone. Always `interrupted`: nobody can tell how the answer
 * would have ended, so `retryable` is unknown, except for a stream the gateway refused before it called the
 * provider (`not_opened`): nothing was asked, so asking again may succeed.
 */
export function outsideEndFailure(end: OutsideEnd): FailInput {
  switch (end.cause) {
    case 'client_request':
      return interrupted('client_cancelled', 'the client cancelled the stream');
    case 'client_disconnected':
      return interrupted('client_cancelled', 'the client disconnected and did not come back within the grace period');
    case 'gateway_lost':
      return interrupted('transport_interrupted', 'the gateway holding the upstream connection stopped renewing its lease');
    case 'gateway_shutdown':
      return interrupted('transport_interrupted', 'the gateway holding the upstream connection shut down before the stream ended');
    case 'trace_backlog':
      return interrupted(
        'transport_interrupted',
        'the gateway ended the stream: JetStream confirmed none of its raw trace records while more than the publisher bound waited in memory',
      );
    case 'not_opened':
      return interrupted(
        'transport_interrupted',
        'the gateway refused the stream before calling the provider (503 unavailable): JetStream did not confirm its opening in time',
        true,
      );
    case 'raw_trace_gap':
      return interrupted(
        'transport_interrupted',
        `raw trace record ${String(end.missing)} never arrived while ${String(end.held)} later records waited for it`,
      );
    default:
      return assertNever(end, 'outside end');
  }
}

function interrupted(category: 'client_cancelled' | 'transport_interrupted', message: string, retryable: true | null = null): FailInput {
  return { type: 'fail', status: 'interrupted', error: { category, retryable, provider_code: null, message } };
}
