import fc from 'fast-check';
import { parseSseRecord } from './sse-record.js';
import { utf8ByteLength } from './utf8-byte-length.js';
import {
  cutsArbitrary,
  cutsFor,
  decodeChunks,
  decodedText,
  providerBodyArbitrary,
  splitAt,
  sseBodyArbitrary,
  utf8,
  type Decoded,
} from './__fixtures__/sse-arbitraries.js';

const bodyArbitrary = fc.oneof(sseBodyArbitrary, providerBodyArbitrary);

/** Every frame equals its re-parse, and only the last frame may be partial. */
function expectWellFormed({ frames }: Decoded): void {
  frames.forEach((frame, index) => {
    expect(parseSseRecord(frame.text, frame.partial)).toStrictEqual(frame);
    if (index < frames.length - 1) expect(frame.partial).toBe(false);
  });
}

describe('createSseDecoder properties', () => {
  it('gives the same frames however the bytes are split (inside characters, between CR and LF)', () => {
    fc.assert(
      fc.property(bodyArbitrary, cutsArbitrary, (body, [random, afterEveryCr]) => {
        const bytes = utf8(body);
        const split = decodeChunks(splitAt(bytes, cutsFor(bytes, random, afterEveryCr)));
        expect(split.frames).toStrictEqual(decodeChunks([bytes]).frames);
      }),
      { numRuns: 3000 },
    );
  });

  it('gives the same frames for text chunks (split anywhere, even inside a surrogate pair) as for bytes', () => {
    fc.assert(
      fc.property(bodyArbitrary, cutsArbitrary, (body, [random, afterEveryCr]) => {
        const split = decodeChunks(splitAt(body, cutsFor(body, random, afterEveryCr)));
        expect(split.frames).toStrictEqual(decodeChunks([utf8(body)]).frames);
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps every character: the frame texts concatenate to the decoded body', () => {
    fc.assert(
      fc.property(bodyArbitrary, cutsArbitrary, (body, [random, afterEveryCr]) => {
        const bytes = utf8(body);
        const decoded = decodeChunks(splitAt(bytes, cutsFor(bytes, random, afterEveryCr)));
        expect(decoded.frames.map((frame) => frame.text).join('')).toBe(decodedText(bytes));
      }),
      { numRuns: 2000 },
    );
  });

  it('produces frames that parseSseRecord re-parses to the same value', () => {
    fc.assert(
      fc.property(bodyArbitrary, cutsArbitrary, (body, [random, afterEveryCr]) => {
        const bytes = utf8(body);
        expectWellFormed(decodeChunks(splitAt(bytes, cutsFor(bytes, random, afterEveryCr))));
      }),
      { numRuns: 2000 },
    );
  });

  it('stops at the first record over the cap, holding no more than the cap between pushes', () => {
    fc.assert(
      fc.property(bodyArbitrary, cutsArbitrary, fc.integer({ min: 1, max: 120 }), (body, [random], limit) => {
        const bytes = utf8(body);
        const capped = decodeChunks(splitAt(bytes, random), { maxFrameBytes: limit });
        const free = decodeChunks([bytes]).frames;
        const firstOver = free.findIndex((frame) => utf8(frame.text).length > limit);
        if (firstOver === -1) {
          expect(capped.error).toBeUndefined();
          expect(capped.frames).toStrictEqual(free);
        } else {
          expect(capped.error).toMatchObject({ code: 'frame_too_large', limit });
          expect(capped.error?.bytes).toBeGreaterThan(limit);
          expect(capped.frames).toStrictEqual(free.slice(0, firstOver));
        }
        for (const held of capped.bufferedAfterPush) expect(held).toBeLessThanOrEqual(limit);
      }),
      { numRuns: 3000 },
    );
  });
});

/** Bytes that matter to the decoder: line endings, colon, space, BOM bytes, UTF-8 lead and continuation bytes. */
const interestingByte = fc.oneof(
  fc.constantFrom(0x0a, 0x0d, 0x3a, 0x20, 0xef, 0xbb, 0xbf, 0xf0, 0x9f, 0x80, 0xc3, 0xff, 0x00),
  fc.integer({ min: 0, max: 255 }),
);

type Mutation = readonly [position: number, byte: number, kind: 'set' | 'insert' | 'delete'];

function mutate(bytes: Uint8Array, mutations: readonly Mutation[]): Uint8Array {
  const result = [...bytes];
  for (const [position, byte, kind] of mutations) {
    const at = position % (result.length + 1);
    if (kind === 'insert') result.splice(at, 0, byte);
    else if (at < result.length) {
      if (kind === 'set') result[at] = byte;
      else result.splice(at, 1);
    }
  }
  return Uint8Array.from(result);
}

const mutatedBody = fc
  .tuple(
    bodyArbitrary,
    fc.array(fc.tuple(fc.nat(), interestingByte, fc.constantFrom('set', 'insert', 'delete')), { maxLength: 10 }),
  )
  .map(([body, mutations]) => mutate(utf8(body), mutations));

const fuzzBytes = fc.oneof(
  fc.uint8Array({ maxLength: 300 }),
  fc.array(interestingByte, { maxLength: 300 }).map((bytes) => Uint8Array.from(bytes)),
  mutatedBody,
);

describe('createSseDecoder fuzzing', () => {
  it('never throws on random or mutated bytes, and loses nothing', () => {
    fc.assert(
      fc.property(
        fuzzBytes,
        cutsArbitrary,
        fc.option(fc.integer({ min: 1, max: 200 }), { nil: undefined }),
        (bytes, [random, afterEveryCr], limit) => {
          const options = limit === undefined ? {} : { maxFrameBytes: limit };
          const decoded = decodeChunks(splitAt(bytes, cutsFor(bytes, random, afterEveryCr)), options);
          const joined = decoded.frames.map((frame) => frame.text).join('');
          if (decoded.error === undefined) {
            expect(joined).toBe(decodedText(bytes));
          } else {
            expect(decodedText(bytes).startsWith(joined)).toBe(true);
            expect(decoded.error.bytes).toBeGreaterThan(decoded.error.limit);
          }
          for (const frame of decoded.frames) expect(utf8(frame.text).length).toBeLessThanOrEqual(limit ?? Infinity);
          expectWellFormed(decoded);
        },
      ),
      { numRuns: 10_000 },
    );
  });
});

describe('utf8ByteLength', () => {
  it('equals the UTF-8 encoded length of well-formed text, and adds up over any split', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), fc.nat(), (text, cut) => {
        const at = cut % (text.length + 1);
        expect(utf8ByteLength(text)).toBe(utf8(text).length);
        expect(utf8ByteLength(text, 0, at) + utf8ByteLength(text, at)).toBe(utf8(text).length);
      }),
    );
  });
});
