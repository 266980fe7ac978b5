import { CodedError } from '../coded-error.js';

/** What went wrong between the HTTP client and the gateway, other than an error the gateway answered. */
export type HttpStreamErrorCode =
  /** The request could not be sent or got no response (the gateway is unreachable); `cause` has the network error. */
  | 'connection_failed'
  /** A response that is neither an event stream nor one of the gateway's error bodies (a proxy's page, say). */
  | 'unexpected_response'
  /** An SSE record that is not a contract event of this stream, or whose `id`/`event` do not match its seq/type. */
  | 'invalid_event'
  /** An event is missing: seq jumped where nothing may be withheld. Never skipped silently. */
  | 'seq_gap'
  /** The connection broke and every resume attempt failed; `cause` has the last failure. */
  | 'resume_exhausted'
  /** The caller's signal aborted the stream. */
  | 'aborted'
  /** A stream was iterated twice: each one is a single pass over its events. */
  | 'already_iterated';

/** An error of the HTTP client; `code` tells which. */
export class HttpStreamError extends CodedError<HttpStreamErrorCode> {
  override readonly name = 'HttpStreamError';
}
