import { ApiError } from './api-error.js';

/**
 * A resume's `Last-Event-ID` is past its stream's terminal event: no event will ever follow it, so the client
 * gets this 400 instead of a clean end with nothing (which would read as a complete answer). Thrown whether the
 * stream had ended when the resume came or ended below the id while the resume waited for it.
 */
export class BeyondEndError extends ApiError {
  override readonly name = 'BeyondEndError';

  constructor(
    /** The resume's Last-Event-ID (or `?after=`). */
    readonly afterSeq: number,
    /** The seq of the stream's terminal event. */
    readonly terminalSeq: number,
  ) {
    super(
      400,
      'beyond_end',
      `Last-Event-ID ${String(afterSeq)} is past the stream's terminal event (seq ${String(terminalSeq)}): no event follows it`,
    );
  }
}
