import type { SseFrame } from './sse-frame.js';

// Character codes of the hot paths: comparing codes avoids building a string per line.
const LF = 10;
const SPACE = 32;
const COLON = 58;
const DIGIT_0 = 48;
const DIGIT_9 = 57;
const LOWER_D = 100;
const LOWER_E = 101;
const LOWER_I = 105;
const LOWER_R = 114;

/**
 * The field buffers of the record being read. Unlike the spec's last-event-ID buffer, which outlives a
 * dispatch, every buffer here belongs to one record: the frame reports what that record said, and the
 * adapter decides what carries over.
 */
export interface RecordFields {
  event: string | undefined;
  data: string | undefined;
  id: string | undefined;
  retry: number | undefined;
  comments: number;
  unknownLines: number;
}

export function emptyRecordFields(): RecordFields {
  return { event: undefined, data: undefined, id: undefined, retry: undefined, comments: 0, unknownLines: 0 };
}

/**
 * Applies one non-blank line, `text[start, end)` without its line ending, to `fields` as the HTML Standard's
 * "process the field" step says (https://html.spec.whatwg.org/multipage/server-sent-events.html#processField):
 * a leading `:` makes a comment; otherwise the field name runs to the first `:` (or the whole line) and one
 * space after the colon is dropped from the value. Names compare case-sensitively. Only the four known names
 * are matched, so no line is ever searched for a colon: any other name is an unknown line however it goes on.
 */
export function readSseLine(fields: RecordFields, text: string, start: number, end: number): void {
  const first = text.charCodeAt(start);
  if (first === COLON) {
    fields.comments++;
    return;
  }
  if (first === LOWER_D) {
    if (isFieldName(text, start, end, 'data')) {
      const value = fieldValue(text, start + 4, end);
      fields.data = fields.data === undefined ? value : `${fields.data}\n${value}`;
      return;
    }
  } else if (first === LOWER_E) {
    if (isFieldName(text, start, end, 'event')) {
      fields.event = fieldValue(text, start + 5, end);
      return;
    }
  } else if (first === LOWER_I) {
    if (isFieldName(text, start, end, 'id')) {
      const value = fieldValue(text, start + 2, end);
      // The spec ignores an id containing U+0000 (it could not be sent back in a Last-Event-ID header).
      if (!value.includes('\0')) fields.id = value;
      return;
    }
  } else if (first === LOWER_R && isFieldName(text, start, end, 'retry')) {
    const value = fieldValue(text, start + 5, end);
    // Only all-ASCII-digit values count; anything else (`50x`, ``, ` 5`) is ignored, like the spec does.
    if (isAsciiDigits(value)) fields.retry = Number.parseInt(value, 10);
    return;
  }
  fields.unknownLines++;
}

/** Builds the frame of a finished (or, at the end of the body, partial) record and empties `fields`. */
export function takeSseFrame(fields: RecordFields, text: string, partial: boolean): SseFrame {
  const frame: SseFrame = {
    text,
    event: fields.event,
    data: fields.data,
    id: fields.id,
    retry: fields.retry,
    comments: fields.comments,
    unknownLines: fields.unknownLines,
    partial,
  };
  fields.event = undefined;
  fields.data = undefined;
  fields.id = undefined;
  fields.retry = undefined;
  fields.comments = 0;
  fields.unknownLines = 0;
  return frame;
}

/**
 * Parses the text of one record, as found in a frame's `text`, into the frame the decoder produced for it:
 * the normalizer re-reads frames from the raw trace with it. Lines end with CRLF, LF or CR. Blank lines only
 * delimit records, so they add nothing here; a last line without a line ending (the text of a `partial`
 * frame) is read like the others.
 */
export function parseSseRecord(text: string, partial = false): SseFrame {
  const fields = emptyRecordFields();
  const length = text.length;
  // Next LF and CR at or after `start`, each searched again only once passed, so that text using a single
  // kind of line ending is not searched to its end for the other kind on every line.
  let nextLf = text.indexOf('\n');
  let nextCr = text.indexOf('\r');
  let start = 0;
  while (start < length) {
    let end: number;
    let next: number;
    if (nextLf !== -1 && (nextCr === -1 || nextLf < nextCr)) {
      end = nextLf;
      next = end + 1;
    } else if (nextCr !== -1) {
      end = nextCr;
      next = text.charCodeAt(end + 1) === LF ? end + 2 : end + 1;
    } else {
      end = length;
      next = length;
    }
    if (end > start) readSseLine(fields, text, start, end);
    start = next;
    if (nextLf !== -1 && nextLf < next) nextLf = text.indexOf('\n', next);
    if (nextCr !== -1 && nextCr < next) nextCr = text.indexOf('\r', next);
  }
  return takeSseFrame(fields, text, partial);
}

/** True when `text[start, end)` is the field `name`: the whole line, or the name followed by a colon. */
function isFieldName(text: string, start: number, end: number, name: string): boolean {
  const nameEnd = start + name.length;
  return (
    nameEnd <= end && text.startsWith(name, start) && (nameEnd === end || text.charCodeAt(nameEnd) === COLON)
  );
}

/** The value after the field name ending at `nameEnd`: empty without a colon, else past `:` and one space. */
function fieldValue(text: string, nameEnd: number, end: number): string {
  if (nameEnd === end) return '';
  let valueStart = nameEnd + 1;
  if (valueStart < end && text.charCodeAt(valueStart) === SPACE) valueStart++;
  return text.slice(valueStart, end);
}

function isAsciiDigits(value: string): boolean {
  if (value.length === 0) return false;
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code < DIGIT_0 || code > DIGIT_9) return false;
  }
  return true;
}
