import fc from 'fast-check';
import { sseRecords } from './sse-records.js';

/** A body that delivers `text` in the given pieces (byte offsets), optionally failing at the end like a cut connection. */
function body(bytes: Uint8Array, cuts: readonly number[], failAtEnd = false): ReadableStream<Uint8Array> {
  const bounds = [...new Set([0, ...cuts.filter((cut) => cut > 0 && cut < bytes.length), bytes.length])].sort((a, b) => a - b);
  let piece = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (piece < bounds.length - 1) {
        controller.enqueue(bytes.slice(bounds[piece], bounds[piece + 1]));
        piece += 1;
      } else if (failAtEnd) controller.error(new TypeError('terminated'));
      else controller.close();
    },
  });
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<{ id?: string | undefined; event?: string | undefined; data: string }[]> {
  const records = [];
  for await (const record of sseRecords(stream)) records.push(record);
  return records;
}

const GATEWAY_TEXT =
  ': keep-alive\n\n' +
  'id: 1\nevent: stream.start\ndata: {"seq":1,"text":"zażółć"}\n\n' +
  ': keep-alive\n\n' +
  'id: 2\r\nevent: block.start\r\ndata: {"seq":2}\r\n\r\n' +
  'id: 3\revent: block.delta\rdata: {"seq":3,"text":"🙂"}\r\r';
const EXPECTED = [
  { id: '1', event: 'stream.start', data: '{"seq":1,"text":"zażółć"}' },
  { id: '2', event: 'block.start', data: '{"seq":2}' },
  { id: '3', event: 'block.delta', data: '{"seq":3,"text":"🙂"}' },
];

describe('sseRecords', () => {
  const bytes = new TextEncoder().encode(GATEWAY_TEXT);

  it('reads the records of a body, skipping comments, with LF, CRLF and CR line ends', async () => {
    expect(await collect(body(bytes, []))).toEqual(EXPECTED);
  });

  it('gives the same records however the bytes are split (inside multi-byte characters too)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 30 }), async (cuts) => {
        expect(await collect(body(bytes, cuts))).toEqual(EXPECTED);
      }),
      { numRuns: 200 },
    );
  });

  it('drops an incomplete last record and rejects with the network error of a cut connection', async () => {
    const cut = new TextEncoder().encode('id: 1\nevent: stream.start\ndata: {"seq":1}\n\nid: 2\nevent: block.start\ndata: {"se');
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const record of sseRecords(body(cut, [10, 40], true))) seen.push(record.data);
      })(),
    ).rejects.toThrow('terminated');
    expect(seen).toEqual(['{"seq":1}']);
    expect(await collect(body(cut, [7]))).toEqual([{ id: '1', event: 'stream.start', data: '{"seq":1}' }]);
  });

  it('cancels the body when the loop is left early', async () => {
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('id: 1\ndata: a\n\nid: 2\ndata: b\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const record of sseRecords(stream)) {
      expect(record.data).toBe('a');
      break;
    }
    expect(cancelled).toBe(true);
  });
});
