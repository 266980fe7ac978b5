import { createSseDecoder } from './sse-decoder.js';
import { decodeChunks, frame, splitAt, utf8 } from './__fixtures__/sse-arbitraries.js';

describe('createSseDecoder chunk boundaries', () => {
  it('joins a CR at the end of a chunk and an LF at the start of the next into one line ending', () => {
    const { frames } = decodeChunks(['data: A\r\n', 'data: B\r', '\n', 'data: C\r', '\n\r', '\n']);
    expect(frames).toStrictEqual([frame('data: A\r\ndata: B\r\ndata: C\r\n\r\n', { data: 'A\nB\nC' })]);
  });

  it('waits past empty chunks to learn whether a CR is followed by an LF', () => {
    const { frames } = decodeChunks(['data: A\r\r', '', new Uint8Array(), '\ndata: B\n\n']);
    expect(frames).toStrictEqual([frame('data: A\r\r\n', { data: 'A' }), frame('data: B\n\n', { data: 'B' })]);
  });

  it('decodes a character split at every byte position between two chunks', () => {
    for (const character of ['é', '我', '☀', '😀']) {
      const bytes = utf8(`data: ${character}\n\n`);
      for (let cut = 6; cut <= 6 + utf8(character).length; cut++) {
        const pieces = splitAt(bytes, [cut, cut + 1]);
        expect(decodeChunks(pieces).frames).toStrictEqual([frame(`data: ${character}\n\n`, { data: character })]);
      }
    }
  });

  it('joins a surrogate pair split between two string chunks', () => {
    const { frames } = decodeChunks(['data: \uD83D', '\uDE00\n\n']);
    expect(frames).toStrictEqual([frame('data: 😀\n\n', { data: '😀' })]);
  });

  it('accepts text after bytes, ending an unfinished character first', () => {
    const { frames } = decodeChunks([new Uint8Array([...utf8('data: a'), 0xe6]), 'b\n\n']);
    expect(frames).toStrictEqual([frame('data: a\uFFFDb\n\n', { data: 'a\uFFFDb' })]);
  });

  it('drops a BOM pushed as text at the stream start, once', () => {
    const { frames } = decodeChunks(['', '\uFEFF', '\uFEFFdata: a\n\n']);
    expect(frames).toStrictEqual([frame('\uFEFFdata: a\n\n', { unknownLines: 1 })]);
  });

  it('returns the frames each push completed, in order', () => {
    const decoder = createSseDecoder();
    expect(decoder.push('data: 1\n\ndata: 2\n\nda')).toStrictEqual([
      frame('data: 1\n\n', { data: '1' }),
      frame('data: 2\n\n', { data: '2' }),
    ]);
    expect(decoder.push('ta: 3\n')).toStrictEqual([]);
    expect(decoder.bufferedLength).toBe('data: 3\n'.length);
    expect(decoder.push('\n')).toStrictEqual([frame('data: 3\n\n', { data: '3' })]);
    expect(decoder.bufferedLength).toBe(0);
    expect(decoder.end()).toStrictEqual([]);
  });
});

describe('createSseDecoder misuse', () => {
  it('throws when pushed after end()', () => {
    const decoder = createSseDecoder();
    decoder.end();
    expect(() => decoder.push('data: x\n\n')).toThrow('after end()');
    expect(decoder.end()).toStrictEqual([]);
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('rejects maxFrameBytes %p', (maxFrameBytes) => {
    expect(() => createSseDecoder({ maxFrameBytes })).toThrow(RangeError);
  });
});

describe('createSseDecoder size cap', () => {
  const limit = 64;
  // 6 + 10 × 3 + 26 + 2 = 64 UTF-8 bytes (but 44 UTF-16 units): the cap counts bytes, not characters.
  const atLimit = `data: ${'☀'.repeat(10)}${'x'.repeat(26)}\n\n`;
  const overLimit = `data: ${'☀'.repeat(10)}${'x'.repeat(27)}\n\n`;

  it.each([
    ['whole', (bytes: Uint8Array) => [bytes]],
    ['byte by byte', (bytes: Uint8Array) => splitAt(bytes, [...bytes.keys()])],
  ])('accepts a record exactly at the limit (%s)', (_how, split) => {
    const { frames, error } = decodeChunks(split(utf8(atLimit)), { maxFrameBytes: limit });
    expect(error).toBeUndefined();
    expect(frames).toStrictEqual([frame(atLimit, { data: atLimit.slice(6, -2) })]);
  });

  it.each([
    ['whole', (bytes: Uint8Array) => [bytes]],
    ['byte by byte', (bytes: Uint8Array) => splitAt(bytes, [...bytes.keys()])],
  ])('ends the stream at a record one byte over the limit (%s)', (_how, split) => {
    const body = utf8(`data: before\n\n${overLimit}data: after\n\n`);
    const { frames, error } = decodeChunks(split(body), { maxFrameBytes: limit });
    expect(frames).toStrictEqual([frame('data: before\n\n', { data: 'before' })]);
    expect(error).toStrictEqual({
      code: 'frame_too_large',
      message: 'An SSE record reached 65 bytes, over the limit of 64',
      bytes: 65,
      limit,
    });
  });

  it('measures a partial record and a record ended by a lone CR at the end of the body', () => {
    const partial = atLimit.slice(0, -1);
    expect(decodeChunks([`${partial}x`], { maxFrameBytes: limit - 1 }).frames).toStrictEqual([]);
    expect(decodeChunks([partial], { maxFrameBytes: limit - 1 }).frames).toStrictEqual([
      frame(partial, { data: partial.slice(6, -1), partial: true }),
    ]);
    const crEnded = `${atLimit.slice(0, -2)}\r\r`;
    const { frames, error } = decodeChunks([crEnded], { maxFrameBytes: limit });
    expect(error).toBeUndefined();
    expect(frames).toStrictEqual([frame(crEnded, { data: atLimit.slice(6, -2) })]);
  });

  it('applies the default limit of 1 MiB', () => {
    const record = (bytes: number) => `data: ${'x'.repeat(bytes - 8)}\n\n`;
    expect(decodeChunks([record(1024 * 1024)]).error).toBeUndefined();
    expect(decodeChunks([record(1024 * 1024 + 1)]).error).toMatchObject({ bytes: 1024 * 1024 + 1 });
  });

  it('does not hold an oversized record: memory stays bounded and later input is ignored', () => {
    const decoder = createSseDecoder();
    const chunk = new Uint8Array(64 * 1024).fill(0x78);
    let pushes = 0;
    while (decoder.error === undefined) {
      expect(decoder.push(chunk)).toStrictEqual([]);
      expect(decoder.bufferedLength).toBeLessThanOrEqual(1024 * 1024);
      pushes++;
    }
    expect(pushes).toBe(17);
    expect(decoder.error.code).toBe('frame_too_large');
    expect(decoder.bufferedLength).toBe(0);
    expect(decoder.push(utf8('\n\ndata: x\n\n'))).toStrictEqual([]);
    expect(decoder.bufferedLength).toBe(0);
    expect(decoder.end()).toStrictEqual([]);
  });
});
