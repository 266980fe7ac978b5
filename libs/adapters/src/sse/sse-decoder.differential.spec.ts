import { createParser } from 'eventsource-parser';
import fc from 'fast-check';
import {
  cutsArbitrary,
  cutsFor,
  decodeChunks,
  providerBodyArbitrary,
  splitAt,
  sseBodyArbitrary,
  utf8,
} from './__fixtures__/sse-arbitraries.js';

// Differential test against eventsource-parser 4, the reference implementation of the same spec. What is
// compared, for the same bytes in the same chunks:
// - every dispatched event: event name, data and id;
// - every comment's text;
// - the reconnection time (`retry`) in effect at each dispatch and at the end of the body.
// Where the two legitimately differ, the observation is normalized and the reason is written down below.

interface Observed {
  readonly events: readonly {
    readonly event: string | undefined;
    readonly data: string;
    readonly id: string | undefined;
    readonly retry: number | undefined;
  }[];
  readonly comments: readonly string[];
  readonly finalRetry: number | undefined;
}

function viaEventsourceParser(chunks: readonly Uint8Array[]): Observed {
  const events: Observed['events'][number][] = [];
  const comments: string[] = [];
  let retry: number | undefined;
  const parser = createParser({
    onEvent: ({ event, data, id }) => events.push({ event, data, id, retry }),
    onComment: (comment) => comments.push(comment),
    onRetry: (value) => (retry = value),
  });
  // eventsource-parser strips one leading BOM, as U+FEFF or as the code units EF BB BF (the BOM's bytes read
  // as Latin-1), so it would drop the text "ï»¿" at the start. In decoded text a BOM is U+FEFF, and
  // TextDecoder, like our decoder, already removed it: a first chunk of one U+FEFF, which it strips, ends its
  // check (version 4 keeps checking past empty chunks).
  parser.feed('\uFEFF');
  // The default TextDecoder drops a leading BOM and yields U+FFFD for bad bytes, as the spec's UTF-8 decode does.
  const utf8Decoder = new TextDecoder('utf-8');
  let text = '';
  for (const chunk of chunks) {
    const piece = utf8Decoder.decode(chunk, { stream: true });
    text += piece;
    parser.feed(piece);
  }
  const tail = utf8Decoder.decode();
  text += tail;
  parser.feed(tail);
  // The end of the body, which eventsource-parser has no call for. Two things differ there, both resolved by
  // feeding one LF, which ends the last line without ever making a blank line (so it dispatches nothing):
  // - A CR at the end of the input may be the first half of a CRLF, so eventsource-parser waits for more
  //   input. At the end of the body nothing can follow: the CR is a whole line ending, and our decoder reads
  //   it so. The LF makes it CRLF, the same single line ending.
  // - An unterminated last line belongs to the partial record, which neither side dispatches. Our partial
  //   frame still reads it (comments and retry included) for the adapters' diagnosis; the LF makes
  //   eventsource-parser read it too. (`reset({consume: true})` would not do: it reads the held text as one
  //   line even when a held CR splits it.)
  if (!text.endsWith('\n')) parser.feed('\n');
  return { events, comments, finalRetry: retry };
}

function viaDecoder(chunks: readonly Uint8Array[]): Observed {
  const events: Observed['events'][number][] = [];
  const comments: string[] = [];
  let retry: number | undefined;
  for (const frame of decodeChunks(chunks).frames) {
    // Frames count comments; their text is cut from the frame text here with a plain split on line endings,
    // independent of the decoder's scanner, and the count is checked against it.
    const frameComments = frame.text
      .split(/\r\n|\r|\n/)
      .filter((line) => line.startsWith(':'))
      .map((line) => line.slice(line.startsWith(': ') ? 2 : 1));
    expect(frame.comments).toBe(frameComments.length);
    comments.push(...frameComments);
    // eventsource-parser reports each valid `retry` line as it reads it; a frame keeps its record's last one.
    // What the spec defines is the reconnection time in effect, so that is compared at each dispatch.
    if (frame.retry !== undefined) retry = frame.retry;
    // Frames without data (comments, `id`/`retry` only, junk, stray blank lines) and the partial last record
    // are not events: the spec dispatches nothing for them, and neither does eventsource-parser.
    if (frame.data === undefined || frame.partial) continue;
    events.push({
      // The spec turns an empty event type into "message" just like an absent one; eventsource-parser
      // reports both as undefined, while a frame keeps the '' it received.
      event: frame.event === '' ? undefined : frame.event,
      data: frame.data,
      // Both report the id a record set, per record (eventsource-parser forgets it after each dispatch;
      // the spec's last-event-ID buffer, which persists, is the adapters' business). No normalization.
      id: frame.id,
      retry,
    });
  }
  return { events, comments, finalRetry: retry };
}

describe('createSseDecoder against eventsource-parser', () => {
  it('agrees on events, comments and retry for SSE-ish bodies split at random', () => {
    fc.assert(
      fc.property(
        fc.oneof(sseBodyArbitrary, providerBodyArbitrary),
        cutsArbitrary,
        (body, [random, afterEveryCr]) => {
          const bytes = utf8(body);
          const chunks = splitAt(bytes, cutsFor(bytes, random, afterEveryCr));
          expect(viaDecoder(chunks)).toStrictEqual(viaEventsourceParser(chunks));
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('agrees on a recorded-style body of every provider framing', () => {
    const body = [
      ': OPENROUTER PROCESSING\n\n',
      'retry: 3000\n',
      'event: message_start\r\ndata: {"type":"message_start"}\r\n\r\n',
      'data: {"candidates":[{"content":{"parts":[{"text":"Привет ☀️"}]}}]}\r\n\r\n',
      'data:{"a":\ndata: 1}\n\n',
      'id: 7\revent:\rdata\r\r',
      ':\n\n\n',
      'data: [DONE]\n\n',
    ].join('');
    const chunks = splitAt(utf8(body), [1, 17, 40, 41, 90, 91, 92, 150]);
    const observed = viaDecoder(chunks);
    expect(observed).toStrictEqual(viaEventsourceParser(chunks));
    expect(observed.events).toHaveLength(5);
    expect(observed.comments).toStrictEqual(['OPENROUTER PROCESSING', '']);
    expect(observed.finalRetry).toBe(3000);
  });
});
