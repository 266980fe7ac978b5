import type { SseFrame } from './sse-frame.js';
import { parseSseRecord } from './sse-record.js';
import { decodeChunks, decodedText, frame, splitAt, utf8 } from './__fixtures__/sse-arbitraries.js';

interface Fixture {
  readonly name: string;
  /** The body as received; a string is the text of its UTF-8 bytes. */
  readonly body: string | Uint8Array;
  readonly frames: readonly SseFrame[];
}

// vercel/ai #5217: Gemini can answer HTTP 200 and then send this with no `data:` framing at all.
const GEMINI_UNFRAMED_ERROR =
  '{\n  "error": {\n    "code": 503,\n    "message": "The model is overloaded.",\n' +
  '    "status": "UNAVAILABLE"\n  }\n}\n';

// Every odd case a provider or proxy has produced or the spec allows. Each is checked whole, byte by byte and
// cut in two at every byte position, so splits inside lines, line endings and characters are all covered.
const fixtures: readonly Fixture[] = [
  {
    name: 'LF line endings',
    body: 'data: cow\ndata: moo\n\n',
    frames: [frame('data: cow\ndata: moo\n\n', { data: 'cow\nmoo' })],
  },
  {
    name: 'CRLF line endings (Gemini)',
    body: 'data: {"a":1}\r\n\r\ndata: {"b":2}\r\n\r\n',
    frames: [
      frame('data: {"a":1}\r\n\r\n', { data: '{"a":1}' }),
      frame('data: {"b":2}\r\n\r\n', { data: '{"b":2}' }),
    ],
  },
  {
    name: 'CR line endings',
    body: 'data: dog\rdata: bark\r\r',
    frames: [frame('data: dog\rdata: bark\r\r', { data: 'dog\nbark' })],
  },
  {
    name: 'mixed line endings in one record',
    body: 'data: a\r\ndata: b\rdata: c\n\r\n',
    frames: [frame('data: a\r\ndata: b\rdata: c\n\r\n', { data: 'a\nb\nc' })],
  },
  {
    name: 'a leading BOM is dropped',
    body: new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('data: x\n\n')]),
    frames: [frame('data: x\n\n', { data: 'x' })],
  },
  {
    name: 'a BOM after the start is text (an unknown field name)',
    body: 'data: a\n\n\uFEFFdata: b\n\n',
    frames: [frame('data: a\n\n', { data: 'a' }), frame('\uFEFFdata: b\n\n', { unknownLines: 1 })],
  },
  {
    name: 'only the first of two BOMs is dropped',
    body: '\uFEFF\uFEFFdata: a\n\n',
    frames: [frame('\uFEFFdata: a\n\n', { unknownLines: 1 })],
  },
  {
    name: 'no trailing blank line: the last record is partial',
    body: 'data: a\n\ndata: b\n',
    frames: [frame('data: a\n\n', { data: 'a' }), frame('data: b\n', { data: 'b', partial: true })],
  },
  {
    name: 'no trailing line ending: the last line still counts in the partial frame',
    body: 'data: a\n\n: tick\ndata: b',
    frames: [
      frame('data: a\n\n', { data: 'a' }),
      frame(': tick\ndata: b', { comments: 1, data: 'b', partial: true }),
    ],
  },
  {
    name: '`data:` without a space',
    body: 'data:x\n\ndata:  two\n\n',
    frames: [frame('data:x\n\n', { data: 'x' }), frame('data:  two\n\n', { data: ' two' })],
  },
  {
    name: '`data` with no colon is an empty data line',
    body: 'data\ndata\n\n',
    frames: [frame('data\ndata\n\n', { data: '\n' })],
  },
  {
    name: 'an empty data line dispatches empty data',
    body: 'data:\n\n',
    frames: [frame('data:\n\n', { data: '' })],
  },
  {
    name: 'several data lines join with LF',
    body: 'data: {"a":\ndata: 1}\n\n',
    frames: [frame('data: {"a":\ndata: 1}\n\n', { data: '{"a":\n1}' })],
  },
  {
    name: 'comment-only records are frames',
    body: ': keep-alive\n\n: OPENROUTER PROCESSING\r\n\r\n',
    frames: [frame(': keep-alive\n\n', { comments: 1 }), frame(': OPENROUTER PROCESSING\r\n\r\n', { comments: 1 })],
  },
  {
    name: 'a bare colon is a comment',
    body: ':\n\n',
    frames: [frame(':\n\n', { comments: 1 })],
  },
  {
    name: 'comments inside an event',
    body: ': a\ndata: x\n:\n::data: no\n\n',
    frames: [frame(': a\ndata: x\n:\n::data: no\n\n', { comments: 3, data: 'x' })],
  },
  {
    name: 'unknown fields and junk are counted, not applied',
    body: 'foo: bar\nDATA: x\n data: y\ndata : z\njustsometext\ndata: ok\n\n',
    frames: [
      frame('foo: bar\nDATA: x\n data: y\ndata : z\njustsometext\ndata: ok\n\n', { unknownLines: 5, data: 'ok' }),
    ],
  },
  {
    name: 'retry with digits',
    body: 'retry: 1500\ndata: a\n\n',
    frames: [frame('retry: 1500\ndata: a\n\n', { retry: 1500, data: 'a' })],
  },
  {
    name: 'retry with non-digits is ignored (an earlier valid one stays)',
    body: 'retry: 1000\nretry: 50x\nretry:\nretry: -1\n\n',
    frames: [frame('retry: 1000\nretry: 50x\nretry:\nretry: -1\n\n', { retry: 1000 })],
  },
  {
    name: 'an id with NUL is ignored',
    body: 'id: 123\nid: bad\0id\ndata: hello\n\n',
    frames: [frame('id: 123\nid: bad\0id\ndata: hello\n\n', { id: '123', data: 'hello' })],
  },
  {
    name: 'an empty id is kept',
    body: 'id\ndata: a\n\nid:\n\n',
    frames: [frame('id\ndata: a\n\n', { id: '', data: 'a' }), frame('id:\n\n', { id: '' })],
  },
  {
    name: 'an event with no data',
    body: 'event: ping\n\n',
    frames: [frame('event: ping\n\n', { event: 'ping' })],
  },
  {
    name: 'an empty event name is kept as received',
    body: 'event:\ndata: x\n\n',
    frames: [frame('event:\ndata: x\n\n', { event: '', data: 'x' })],
  },
  {
    name: 'the last event line wins',
    body: 'event: a\nevent: b\ndata: x\n\n',
    frames: [frame('event: a\nevent: b\ndata: x\n\n', { event: 'b', data: 'x' })],
  },
  {
    name: 'blank lines that end nothing are frames of their own',
    body: '\n\r\ndata: a\n\n\n\r\n\rdata: b\n\n',
    frames: [
      frame('\n'),
      frame('\r\n'),
      frame('data: a\n\n', { data: 'a' }),
      frame('\n'),
      frame('\r\n'),
      frame('\r'),
      frame('data: b\n\n', { data: 'b' }),
    ],
  },
  {
    name: 'an unframed pretty-printed JSON error body (Gemini after HTTP 200)',
    body: `data: {"candidates":[]}\r\n\r\n${GEMINI_UNFRAMED_ERROR}`,
    frames: [
      frame('data: {"candidates":[]}\r\n\r\n', { data: '{"candidates":[]}' }),
      frame(GEMINI_UNFRAMED_ERROR, { unknownLines: 7, partial: true }),
    ],
  },
  {
    name: 'an unframed JSON body closed by a blank line',
    body: '{"error": {"code": 429}}\n\n',
    frames: [frame('{"error": {"code": 429}}\n\n', { unknownLines: 1 })],
  },
  {
    name: 'a lone CR blank line at the end of the body completes the record',
    body: 'data: a\r\r',
    frames: [frame('data: a\r\r', { data: 'a' })],
  },
  {
    name: 'a lone CR line ending at the end of the body',
    body: 'data: a\r',
    frames: [frame('data: a\r', { data: 'a', partial: true })],
  },
  {
    name: 'multi-byte text',
    body: 'event: 我\ndata: Проверяю ☀️ 😀\n\n',
    frames: [frame('event: 我\ndata: Проверяю ☀️ 😀\n\n', { event: '我', data: 'Проверяю ☀️ 😀' })],
  },
  {
    name: 'an unfinished UTF-8 character at the end of the body becomes U+FFFD',
    body: new Uint8Array([...utf8('data: a\n\ndata: '), 0xe6, 0x88]),
    frames: [frame('data: a\n\n', { data: 'a' }), frame('data: \uFFFD', { data: '\uFFFD', partial: true })],
  },
  {
    name: 'invalid UTF-8 bytes become U+FFFD',
    body: new Uint8Array([...utf8('data: '), 0xff, 0xc0, 0x41, 10, 10]),
    frames: [frame('data: \uFFFD\uFFFDA\n\n', { data: '\uFFFD\uFFFDA' })],
  },
  {
    name: 'an empty body',
    body: '',
    frames: [],
  },
];

function bytesOf(body: string | Uint8Array): Uint8Array {
  return typeof body === 'string' ? utf8(body) : body;
}

describe('createSseDecoder fixtures', () => {
  describe.each(fixtures)('$name', ({ body, frames }) => {
    const bytes = bytesOf(body);

    it('decodes the body pushed whole', () => {
      expect(decodeChunks([bytes]).frames).toStrictEqual(frames);
    });

    it('decodes the body pushed byte by byte', () => {
      expect(decodeChunks(splitAt(bytes, [...bytes.keys()])).frames).toStrictEqual(frames);
    });

    it('decodes the body cut in two at every byte position', () => {
      for (let cut = 0; cut <= bytes.length; cut++) {
        expect(decodeChunks(splitAt(bytes, [cut])).frames).toStrictEqual(frames);
      }
    });

    it('keeps every character: the frame texts concatenate to the body', () => {
      expect(frames.map((each) => each.text).join('')).toBe(decodedText(bytes));
    });

    it('re-parses each frame from its text', () => {
      for (const each of frames) expect(parseSseRecord(each.text, each.partial)).toStrictEqual(each);
    });
  });
});
