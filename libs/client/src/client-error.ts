import { CodedError } from './coded-error.js';

/** What went wrong with the client itself (as opposed to the events it reads). */
export type LlmStreamClientErrorCode =
  /** A tenant, stream id or consumer name that cannot be a subject token or consumer name: a programmer error. */
  | 'invalid_argument'
  /** A subscription was iterated twice: each one is a single pass over its events. */
  | 'already_iterated'
  /** The client was closed before the call. */
  | 'client_closed'
  /** The NATS connection was closed under a subscription that had not ended. */
  | 'connection_closed'
  /** A durable consumer of that name exists with another filter subject (another tenant, another purpose). */
  | 'consumer_mismatch';

/** An error of the client library; `code` tells which. */
export class LlmStreamClientError extends CodedError<LlmStreamClientErrorCode> {
  override readonly name = 'LlmStreamClientError';
}
