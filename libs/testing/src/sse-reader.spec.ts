import { createParser, type EventSourceMessage } from 'eventsource-parser';
import fc from 'fast-check';
import { createServer, get, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SseEvent } from './sse-parser.js';
import { collectSse, readSseStream, SseTimeoutError } from './sse-reader.js';
import { waitFor } from './wait-for.js';

const encoder = new TextEncoder();

/** Every framing case in one body: BOM, CRLF, LF and CR line ends, comments, multi-line data, ignored fields. */
const BODY =
  '\uFEFF: keep-alive\r\n' +
  'event: block.start\r\nid: 1\r\ndata: {"index":0}\r\n\r\n' +
  ':\n' +
  'data: line one\ndata: line two\n\n' +
  'event: ping\n\n' +
  'data: cr only\r\r' +
  'data:no space\nretry: 100\nfoo: bar\n\n' +
  'data\n\n' +
  'id: a\u0000b\ndata:  two spaces\n\n' +
  'event: block.delta\ndata: Привет ☀️\n\n' +
  'data: truncated, never dispatched';

const EXPECTED: SseEvent[] = [
  { event: 'block.start', id: '1', data: '{"index":0}' },
  { data: 'line one\nline two' },
  { data: 'cr only' },
  { data: 'no space' },
  { data: '' },
  { data: ' two spaces' },
  { event: 'block.delta', data: 'Привет ☀️' },
];

/** Splits bytes at the given offsets (sorted, deduplicated, out-of-range ignored). */
function splitAt(bytes: Uint8Array, offsets: readonly number[]): Uint8Array[] {
  const cuts = [...new Set(offsets.filter((offset) => offset > 0 && offset < bytes.length))].sort((a, b) => a - b);
  return [0, ...cuts].map((start, index) => bytes.subarray(start, cuts[index] ?? bytes.length));
}

async function* fromChunks(chunks: readonly Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) {
    await Promise.resolve();
    yield chunk;
  }
}

async function readAll(chunks: readonly Uint8Array[]): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const event of readSseStream(fromChunks(chunks))) {
    events.push(event);
  }
  return events;
}

/** eventsource-parser's reading of the same text, as the reference for the differential property. */
function referenceEvents(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  const parser = createParser({
    onEvent: ({ event, id, data }: EventSourceMessage) => {
      events.push({ ...(event === undefined ? {} : { event }), ...(id === undefined ? {} : { id }), data });
    },
  });
  parser.feed(text);
  // A final CR ends a line per the standard; eventsource-parser waits for a possible LF, so give it one.
  if (text.endsWith('\r')) {
    parser.feed('\n');
  }
  return events;
}

describe('readSseStream', () => {
  it('parses every framing case exactly, byte by byte', async () => {
    const bytes = encoder.encode(BODY);
    const everyByte = Array.from({ length: bytes.length }, (_, index) => index);

    expect(await readAll([bytes])).toEqual(EXPECTED);
    expect(await readAll(splitAt(bytes, everyByte))).toEqual(EXPECTED);
  });

  it('gives the same events for any split of the bytes', async () => {
    const bytes = encoder.encode(BODY);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 40 }), async (offsets) => {
        expect(await readAll(splitAt(bytes, offsets))).toEqual(EXPECTED);
      }),
      { numRuns: 200 },
    );
  });

  it('agrees with eventsource-parser on random streams split at random', async () => {
    const line = fc.constantFrom(
      'data: a', 'data:b', 'data', 'data: ☀️ Привет', 'event: x', 'event:', 'event', 'id: 1', 'id', ': c', ':', 'retry: 5', 'foo: bar', '',
    );
    const terminator = fc.constantFrom('\n', '\r\n', '\r');
    const stream = fc.array(fc.tuple(line, terminator), { maxLength: 30 }).map((lines) => lines.map(([text, end]) => text + end).join(''));
    await fc.assert(
      fc.asyncProperty(stream, fc.array(fc.nat(), { maxLength: 20 }), async (text, offsets) => {
        const bytes = encoder.encode(text);
        expect(await readAll(splitAt(bytes, offsets.map((offset) => offset % (bytes.length + 1))))).toEqual(referenceEvents(text));
      }),
      { numRuns: 300 },
    );
  });
});

describe('reading a real HTTP event stream', () => {
  let server: Server;
  let baseUrl: string;
  let closedResponses = 0;
  const routes = new Map<string, (response: ServerResponse) => Promise<void>>();

  const write = (response: ServerResponse, chunk: Uint8Array | string): Promise<void> =>
    new Promise((resolve, reject) => {
      response.write(chunk, (error) => {
        if (error) {
          reject(error);
        } else {
          resolve();
        }
      });
    });

  beforeAll(async () => {
    routes.set('/odd-chunks', async (response) => {
      // Odd cuts: inside the BOM, between CR and LF, inside "data:", between two CRs, inside the two-byte "П" and
      // the three-byte "☀".
      for (const chunk of splitAt(encoder.encode(BODY), [1, 2, 16, 46, 125, 220, 233, 234])) {
        await write(response, chunk);
      }
      response.end();
    });
    routes.set('/endless', async (response) => {
      await write(response, 'event: stream.start\ndata: {}\n\n: heartbeat\n\n');
      await write(response, 'event: block.start\ndata: {"index":0}\n\n');
      // Left open on purpose: the client decides when to stop.
    });
    server = createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.on('close', () => {
        closedResponses++;
      });
      void routes.get(request.url ?? '')?.(response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('parses a fetch Response written in odd chunks', async () => {
    const events: SseEvent[] = [];
    for await (const event of readSseStream(await fetch(`${baseUrl}/odd-chunks`))) {
      events.push(event);
    }

    expect(events).toEqual(EXPECTED);
  });

  it('collectSse collects a whole stream, from a fetch Response or a node:http response', async () => {
    const incoming = await new Promise<IncomingMessage>((resolve, reject) => {
      get(`${baseUrl}/odd-chunks`, resolve).on('error', reject);
    });

    expect(await collectSse(await fetch(`${baseUrl}/odd-chunks`))).toEqual(EXPECTED);
    expect(await collectSse(incoming)).toEqual(EXPECTED);
  });

  it('collectSse stops at the event `until` accepts and cancels the body', async () => {
    const before = closedResponses;

    const events = await collectSse(await fetch(`${baseUrl}/endless`), { until: (event) => event.event === 'block.start' });

    expect(events).toEqual([
      { event: 'stream.start', data: '{}' },
      { event: 'block.start', data: '{"index":0}' },
    ]);
    await waitFor(() => closedResponses > before, { description: 'the server to see the request cancelled' });
  });

  it('collectSse rejects after the timeout with the events received so far', async () => {
    const attempt = collectSse(await fetch(`${baseUrl}/endless`), { until: () => false, timeoutMs: 300 });

    await expect(attempt).rejects.toThrow(SseTimeoutError);
    await expect(attempt).rejects.toMatchObject({
      code: 'SSE_TIMEOUT',
      events: [
        { event: 'stream.start', data: '{}' },
        { event: 'block.start', data: '{"index":0}' },
      ],
    });
  });
});
