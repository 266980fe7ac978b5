/**
 * One record of a `text/event-stream` body, as cut by the decoder (layer 1). It keeps the exact text for
 * the diagnostic trace beside the fields the HTML Standard's event-stream interpretation gives it
 * (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation).
 */
export interface SseFrame {
  /**
   * The record's exact text: every line with its own line ending, including the blank line that ended it
   * (a blank line that ends nothing, after another blank line, is a frame whose text is just that line).
   * The texts of all frames of a body, in order, concatenate to the decoded body minus its leading BOM.
   */
  readonly text: string;
  /** The last `event:` field value, `''` included; `undefined` when the record had no `event` field. */
  readonly event: string | undefined;
  /**
   * The `data:` lines joined by `\n` (the spec's data buffer without its final LF); `undefined` when the
   * record had no `data` field, in which case the spec dispatches nothing.
   */
  readonly data: string | undefined;
  /**
   * The last `id:` field value of this record (one containing U+0000 is ignored, as the spec says);
   * `undefined` when absent. Per record: carrying it over as the spec's last event ID is the adapter's call.
   */
  readonly id: string | undefined;
  /** The last `retry:` field of the record that is all ASCII digits; `undefined` when there is none. */
  readonly retry: number | undefined;
  /** Number of comment lines (lines starting with `:`), e.g. `: keep-alive` or `: OPENROUTER PROCESSING`. */
  readonly comments: number;
  /**
   * Number of lines that are neither a known field nor a comment, such as the lines of an unframed JSON
   * error body. The spec ignores them; adapters may inspect `text`.
   */
  readonly unknownLines: number;
  /**
   * True when the body ended before the blank line that completes the record (never dispatched by the
   * spec). Only the last frame of a body can be partial; its fields also read its unterminated last line.
   */
  readonly partial: boolean;
}

/** Layer-1 failures, as values. */
export interface SseDecodeError {
  readonly code: 'frame_too_large';
  readonly message: string;
  /**
   * UTF-8 bytes of the record when the limit was found crossed: all of it when the push that crossed the
   * limit also completed it, otherwise as much of it as had arrived.
   */
  readonly bytes: number;
  readonly limit: number;
}

/** Default cap on the size of one record: a frame over it ends the stream with `protocol_error`. */
export const DEFAULT_MAX_FRAME_BYTES = 1024 * 1024;
