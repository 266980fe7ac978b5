/**
 * One server-sent event as dispatched by the WHATWG event stream interpretation
 * (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation).
 */
export interface SseEvent {
  /** The `event:` field of this record; absent when missing or empty (the type is then "message"). */
  readonly event?: string;
  /** The `id:` field of this record, if it had one (unlike EventSource's lastEventId it does not carry over). */
  readonly id?: string;
  /** The `data:` lines of this record joined with "\n". */
  readonly data: string;
}

/** An incremental parser: feed it decoded text in any split, it returns the events each piece completed. */
export interface SseParser {
  feed(text: string): SseEvent[];
}

const LF = 10;
const CR = 13;

/**
 * Creates an exact SSE parser. Lines end with CRLF, LF or CR, in any mix, and a CRLF split across two pieces is
 * one line end. A blank line dispatches the record if it had at least one data line; `:` lines are comments;
 * unknown fields and `retry` are ignored; an unterminated last record is never dispatched (the caller just stops
 * feeding). Decoding bytes, including the BOM, is the caller's job ({@link TextDecoder} strips a leading BOM).
 */
export function createSseParser(): SseParser {
  let partialLine = '';
  // A CR ended the previous piece: a LF opening the next one belongs to it.
  let skipLeadingLineFeed = false;
  let dataLines: string[] = [];
  let eventType: string | undefined;
  let id: string | undefined;

  const dispatch = (events: SseEvent[]): void => {
    if (dataLines.length > 0) {
      events.push({
        ...(eventType === undefined ? {} : { event: eventType }),
        ...(id === undefined ? {} : { id }),
        data: dataLines.join('\n'),
      });
    }
    dataLines = [];
    eventType = undefined;
    id = undefined;
  };

  const processLine = (line: string, events: SseEvent[]): void => {
    if (line === '') {
      dispatch(events);
      return;
    }
    if (line.startsWith(':')) {
      return;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const rawValue = colon === -1 ? '' : line.slice(colon + 1);
    const value = rawValue.startsWith(' ') ? rawValue.slice(1) : rawValue;
    switch (field) {
      case 'data':
        dataLines.push(value);
        break;
      case 'event':
        eventType = value === '' ? undefined : value;
        break;
      case 'id':
        // The standard ignores an id containing NULL.
        if (!value.includes('\0')) {
          id = value;
        }
        break;
      default:
        // `retry` and unknown fields do not affect the events.
        break;
    }
  };

  return {
    feed: (text) => {
      const events: SseEvent[] = [];
      let start = 0;
      if (skipLeadingLineFeed && text.length > 0) {
        skipLeadingLineFeed = false;
        if (text.charCodeAt(0) === LF) {
          start = 1;
        }
      }
      for (let index = start; index < text.length; index++) {
        const code = text.charCodeAt(index);
        if (code !== LF && code !== CR) {
          continue;
        }
        const line = partialLine + text.slice(start, index);
        partialLine = '';
        if (code === CR) {
          if (index + 1 === text.length) {
            skipLeadingLineFeed = true;
          } else if (text.charCodeAt(index + 1) === LF) {
            index++;
          }
        }
        start = index + 1;
        processLine(line, events);
      }
      partialLine += text.slice(start);
      return events;
    },
  };
}
