import { DEFAULT_MAX_FRAME_BYTES, type SseDecodeError, type SseFrame } from './sse-frame.js';
import { emptyRecordFields, readSseLine, takeSseFrame } from './sse-record.js';
import { utf8ByteLength } from './utf8-byte-length.js';

const LF = 10;
const BOM = 0xfeff;
const NO_FRAMES: readonly SseFrame[] = Object.freeze([]);

export interface SseDecoderOptions {
  /** Cap on the UTF-8 size of one record's text (its `SseFrame.text`); default {@link DEFAULT_MAX_FRAME_BYTES}. */
  readonly maxFrameBytes?: number;
}

/**
 * Layer 1: cuts a `text/event-stream` body into records, following the HTML Standard's event-stream
 * parsing (https://html.spec.whatwg.org/multipage/server-sent-events.html#parsing-an-event-stream).
 *
 * Nothing received is dropped: every blank line ends a frame, so the frames partition the decoded text and
 * the concatenation of their `text`, in order, is the body minus its leading BOM. That includes a blank line
 * that ends nothing (a second blank line in a row): it is a frame of its own whose text is that line ending,
 * with every field empty, because the spec treats it as a dispatch like any other (one that dispatches
 * nothing), and because attaching it to the previous frame would mean holding that frame back until the next
 * line arrives. Records without data (comments, `id`/`retry` only, lines that are not SSE at all, like an
 * unframed JSON error body) are frames too; adapters look at `data`, `comments` and `unknownLines`.
 */
export interface SseDecoder {
  /** Decodes one chunk of the body (bytes, or text already decoded) and returns the frames it completed. */
  push(chunk: Uint8Array | string): readonly SseFrame[];
  /**
   * The body ended. Returns the frames that only the end could complete: a record whose final blank line is
   * a lone CR (which could have been the start of a CRLF), then, when any text remains without a terminating
   * blank line, one frame with `partial: true` holding it all. Bytes of an unfinished UTF-8 character become
   * U+FFFD, as the spec's UTF-8 decode says. Pushing after `end()` is a programming error and throws.
   */
  end(): readonly SseFrame[];
  /** Set once a record grew past `maxFrameBytes`; from then on `push` and `end` return no frames. */
  readonly error: SseDecodeError | undefined;
  /** UTF-16 code units held for the record in progress; never more than `maxFrameBytes` between pushes. */
  readonly bufferedLength: number;
}

export function createSseDecoder(options: SseDecoderOptions = {}): SseDecoder {
  const maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
  if (!Number.isSafeInteger(maxFrameBytes) || maxFrameBytes < 1) {
    throw new RangeError(`maxFrameBytes must be a positive integer, got ${maxFrameBytes}`);
  }
  // A UTF-16 code unit encodes to at most 3 UTF-8 bytes, so text of up to this many units is under the cap
  // without counting: the per-character count only runs for records near the cap.
  const surelyUnderUnits = Math.floor(maxFrameBytes / 3);
  // `ignoreBOM` keeps a BOM in the text so that one rule strips it for byte and string input alike.
  const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
  const fields = emptyRecordFields();

  /** Text of the record in progress received by earlier pushes (a rope: appending does not copy it). */
  let carry = '';
  /** Exact UTF-8 size of `carry`, counted once it is long enough to matter; -1 until then. */
  let carryBytes = -1;
  /** The unterminated line at the end of `carry`, read once its line ending arrives. */
  let lineCarry = '';
  /** `carry` ends with a CR line ending; an LF opening the next chunk belongs to the same line ending. */
  let crPending = false;
  /** That CR ended a blank line: the record is complete, but its text may still gain the LF. */
  let blankPending = false;
  /** Bytes were decoded since the last flush, so the decoder may hold part of a character. */
  let bytesHeld = false;
  let started = false;
  let ended = false;
  let error: SseDecodeError | undefined;

  function stripLeadingBom(text: string): string {
    if (started || text.length === 0) return text;
    started = true;
    return text.charCodeAt(0) === BOM ? text.slice(1) : text;
  }

  function fail(bytes: number): void {
    error = {
      code: 'frame_too_large',
      message: `An SSE record reached ${bytes} bytes, over the limit of ${maxFrameBytes}`,
      bytes,
      limit: maxFrameBytes,
    };
    carry = '';
    carryBytes = -1;
    lineCarry = '';
    crPending = false;
    blankPending = false;
    takeSseFrame(fields, '', false);
  }

  /** Appends the frame of a complete record, or fails the stream when its text is over the cap. */
  function emit(frames: SseFrame[], text: string): boolean {
    if (text.length > surelyUnderUnits) {
      const bytes = utf8ByteLength(text);
      if (bytes > maxFrameBytes) {
        fail(bytes);
        return false;
      }
    }
    frames.push(takeSseFrame(fields, text, false));
    return true;
  }

  /**
   * Scans one chunk of decoded text. Positions in the chunk are kept for the line and the record in
   * progress, so each character is searched once; text is only copied when a frame's text or a field value
   * is cut out of it, or when a record spans chunks and is joined at its end.
   */
  function scan(chunk: string): SseFrame[] {
    const frames: SseFrame[] = [];
    const length = chunk.length;
    if (length === 0) return frames;
    /** Start of the record in progress in `chunk`; -1 while it began in an earlier chunk (in `carry`). */
    let recordStart = carry === '' ? 0 : -1;
    /** Start of the line in progress in `chunk` (`lineCarry` holds its part from earlier chunks). */
    let lineStart = 0;
    if (crPending) {
      crPending = false;
      if (chunk.charCodeAt(0) === LF) lineStart = 1;
      if (blankPending) {
        blankPending = false;
        const text = carry + chunk.slice(0, lineStart);
        carry = '';
        carryBytes = -1;
        if (!emit(frames, text)) return frames;
        recordStart = lineStart;
      }
    }
    // Next LF and CR at or after `lineStart`, each searched again only once passed, so that an LF-only
    // stream is not searched to its end for a CR on every line.
    let nextLf = chunk.indexOf('\n', lineStart);
    let nextCr = chunk.indexOf('\r', lineStart);
    for (;;) {
      let end: number;
      let next: number;
      if (nextLf !== -1 && (nextCr === -1 || nextLf < nextCr)) {
        end = nextLf;
        next = end + 1;
      } else if (nextCr !== -1) {
        end = nextCr;
        next = end + 1;
        if (next === length) crPending = true;
        else if (chunk.charCodeAt(next) === LF) next++;
      } else {
        break;
      }
      if (lineCarry !== '') {
        const line = lineCarry + chunk.slice(0, end);
        lineCarry = '';
        readSseLine(fields, line, 0, line.length);
      } else if (end > lineStart) {
        readSseLine(fields, chunk, lineStart, end);
      } else if (crPending) {
        blankPending = true;
      } else {
        // A blank line: the record is complete.
        let text: string;
        if (recordStart < 0) {
          text = carry + chunk.slice(0, next);
          carry = '';
          carryBytes = -1;
        } else {
          text = chunk.slice(recordStart, next);
        }
        if (!emit(frames, text)) return frames;
        recordStart = next;
      }
      lineStart = next;
      if (nextLf !== -1 && nextLf < next) nextLf = chunk.indexOf('\n', next);
      if (nextCr !== -1 && nextCr < next) nextCr = chunk.indexOf('\r', next);
    }
    if (lineStart < length) lineCarry += chunk.slice(lineStart);
    holdRecord(chunk, recordStart);
    return frames;
  }

  /** Keeps the unfinished record for the next chunk, failing the stream rather than holding too much. */
  function holdRecord(chunk: string, recordStart: number): void {
    let added: string;
    if (recordStart < 0) {
      added = chunk;
      carry += chunk;
    } else if (recordStart < chunk.length) {
      added = chunk.slice(recordStart);
      carry = added;
    } else {
      return;
    }
    if (carry.length <= surelyUnderUnits) return;
    carryBytes = carryBytes < 0 ? utf8ByteLength(carry) : carryBytes + utf8ByteLength(added);
    if (carryBytes > maxFrameBytes) fail(carryBytes);
  }

  function push(chunk: Uint8Array | string): readonly SseFrame[] {
    if (ended) throw new Error('SseDecoder.push() called after end()');
    if (error !== undefined) return NO_FRAMES;
    let text: string;
    if (typeof chunk === 'string') {
      // Text after bytes: the bytes of an unfinished character cannot be completed by it any more.
      text = bytesHeld ? utf8.decode() + chunk : chunk;
      bytesHeld = false;
    } else {
      text = utf8.decode(chunk, { stream: true });
      bytesHeld = true;
    }
    return scan(stripLeadingBom(text));
  }

  function end(): readonly SseFrame[] {
    if (ended || error !== undefined) {
      ended = true;
      return NO_FRAMES;
    }
    ended = true;
    // Should this flush fail the stream, `fail` has emptied the record state and nothing below applies.
    const frames = bytesHeld ? scan(stripLeadingBom(utf8.decode())) : [];
    if (blankPending) {
      // No LF can follow any more: the lone CR was the whole line ending of the blank line.
      emit(frames, carry);
    } else if (carry !== '') {
      if (lineCarry !== '') readSseLine(fields, lineCarry, 0, lineCarry.length);
      frames.push(takeSseFrame(fields, carry, true));
    }
    carry = '';
    lineCarry = '';
    crPending = false;
    blankPending = false;
    return frames;
  }

  return {
    push,
    end,
    get error() {
      return error;
    },
    get bufferedLength() {
      return carry.length;
    },
  };
}
