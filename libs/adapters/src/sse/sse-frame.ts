/**
 * One record of a `text/event-stream` body, as cut by the decoder (layer 1). It keeps the exact text for
 * the diagnostic trace beside the fields the HTML Standard's event-stream interpretation gives it
 * (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation).
 */
export interface SseFrame {
  /** The record's exact text: every line with its own line ending, including the blank line that ended it. */
  readonly text: string;
  /** The `event:` field value; `undefined` when the record had no `event` field. */
  readonly event: string | undefined;
  /**
   * The `data:` lines joined by `\n` (the spec's data buffer without its final LF); `undefined` when the
   * record had no `data` field, in which case the spec dispatches nothing.
   */
  readonly data: string | undefined;
  /** The `id:` field value (ignored by the spec when it contains U+0000); `undefined` when absent. */
  readonly id: string | undefined;
  /** The `retry:` field when it is all ASCII digits; `undefined` otherwise. */
  readonly retry: number | undefined;
  /** Number of comment lines (lines starting with `:`), e.g. `: keep-alive` or `: OPENROUTER PROCESSING`. */
  readonly comments: number;
  /**
   * Number of lines that are neither a known field nor a comment, such as the lines of an unframed JSON
   * error body. The spec ignores them; adapters may inspect `text`.
   */
  readonly unknownLines: number;
  /** True when the body ended before the blank line that completes the record (never dispatched by the spec). */
  readonly partial: boolean;
}

/** Layer-1 failures, as values. */
export interface SseDecodeError {
  readonly code: 'frame_too_large';
  readonly message: string;
  /** Bytes of the record when the limit was crossed. */
  readonly bytes: number;
  readonly limit: number;
}

/** Default cap on the size of one record: a frame over it ends the stream with `protocol_error`. */
export const DEFAULT_MAX_FRAME_BYTES = 1024 * 1024;
