// Test support for the SSE decoder specs: SSE-ish body generators, chunk splitters and a one-call decode.
import fc from 'fast-check';
import { createSseDecoder, type SseDecoderOptions } from '../sse-decoder.js';
import type { SseDecodeError, SseFrame } from '../sse-frame.js';

export interface Decoded {
  readonly frames: readonly SseFrame[];
  readonly error: SseDecodeError | undefined;
  /** `bufferedLength` after each push, to check that the held text stays bounded. */
  readonly bufferedAfterPush: readonly number[];
}

/** The frame of `text` with every field empty unless given. */
export function frame(text: string, fields: Partial<Omit<SseFrame, 'text'>> = {}): SseFrame {
  return {
    text,
    event: undefined,
    data: undefined,
    id: undefined,
    retry: undefined,
    comments: 0,
    unknownLines: 0,
    partial: false,
    ...fields,
  };
}

/** Pushes `chunks` in order, then ends the body. */
export function decodeChunks(
  chunks: readonly (Uint8Array | string)[],
  options: SseDecoderOptions = {},
): Decoded {
  const decoder = createSseDecoder(options);
  const frames: SseFrame[] = [];
  const bufferedAfterPush: number[] = [];
  for (const chunk of chunks) {
    frames.push(...decoder.push(chunk));
    bufferedAfterPush.push(decoder.bufferedLength);
  }
  frames.push(...decoder.end());
  return { frames, error: decoder.error, bufferedAfterPush };
}

export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** The text the decoder must reproduce: UTF-8 decoding with U+FFFD for bad bytes and the leading BOM removed. */
export function decodedText(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes);
}

/** Cuts `input` at the given positions (any order, duplicates and out-of-range values allowed). */
export function splitAt<T extends Uint8Array | string>(input: T, cuts: readonly number[]): T[] {
  const positions = [...new Set(cuts.map((cut) => cut % (input.length + 1)))].sort((a, b) => a - b);
  const pieces: T[] = [];
  let start = 0;
  for (const position of [...positions, input.length]) {
    pieces.push(input.slice(start, position) as T);
    start = position;
  }
  return pieces;
}

/** Cut positions: random ones, plus (sometimes) one right after every CR so that CR|LF splits are common. */
export function cutsFor(input: Uint8Array | string, random: readonly number[], afterEveryCr: boolean): number[] {
  const cuts = [...random];
  if (afterEveryCr) {
    for (let index = 0; index < input.length; index++) {
      const code = typeof input === 'string' ? input.charCodeAt(index) : input[index];
      if (code === 13) cuts.push(index + 1);
    }
  }
  return cuts;
}

export const cutsArbitrary = fc.tuple(fc.array(fc.nat(), { maxLength: 24 }), fc.boolean());

/** Characters that have broken SSE parsers: multi-byte, astral, NUL, BOM, a BOM's bytes read as Latin-1. */
const trickyText = fc.constantFrom('é', '我', '☀️', '😀', '\u0000', '\uFEFF', 'ï»¿', '\u2028', ' ', ':', '  ');

/** Text without line endings, which no field value can contain. */
const lineText = fc
  .array(fc.oneof(fc.string({ unit: 'binary', maxLength: 6 }), fc.string({ maxLength: 6 }), trickyText), {
    maxLength: 4,
  })
  .map((parts) => parts.join('').replace(/[\r\n]/g, ''));

const separator = fc.constantFrom(':', ': ', ':  ', '');

const fieldLine = fc
  .tuple(fc.constantFrom('data', 'data', 'data', 'event', 'id', 'retry'), separator, lineText)
  .map(([name, colon, value]) => (colon === '' ? name : `${name}${colon}${value}`));

const retryLine = fc
  .tuple(separator, fc.oneof(fc.nat().map(String), fc.constantFrom('', '50x', ' 7', '1.5', '-1', '0', '007')))
  .map(([colon, value]) => `retry${colon === '' ? ':' : colon}${value}`);

const idLine = fc.constantFrom('id: 1', 'id:', 'id', 'id: a\u0000b', 'id:\u0000', 'id: 42 ');

const commentLine = fc.oneof(
  fc.constantFrom(':', ': keep-alive', ': OPENROUTER PROCESSING', '::', ':data: x'),
  lineText.map((text) => `:${text}`),
);

const unknownLine = fc.oneof(
  fc.constantFrom('DATA: x', ' data: x', 'data : x', 'datax', 'eventx: y', 'Id: 1', 'retry_: 1', 'foo: bar'),
  fc.constantFrom('{', '  "error": {', '    "code": 503,', '    "status": "UNAVAILABLE"', '  }', '}', '[{'),
  lineText.filter((text) => text !== ''),
);

/** One SSE-ish line without its line ending; '' is a blank line. */
export const sseLineArbitrary = fc.oneof(
  { arbitrary: fc.constant(''), weight: 4 },
  { arbitrary: fieldLine, weight: 6 },
  { arbitrary: retryLine, weight: 1 },
  { arbitrary: idLine, weight: 1 },
  { arbitrary: commentLine, weight: 2 },
  { arbitrary: unknownLine, weight: 2 },
);

export const lineEndingArbitrary = fc.constantFrom('\n', '\r\n', '\r');

/**
 * A body: lines with random line endings (mixed within one body), an optional leading BOM, and an optional
 * unterminated last line, so that incomplete final records are common.
 */
export const sseBodyArbitrary = fc
  .tuple(
    fc.boolean(),
    fc.array(fc.tuple(sseLineArbitrary, lineEndingArbitrary), { maxLength: 30 }),
    fc.option(sseLineArbitrary, { nil: undefined }),
  )
  .map(
    ([bom, lines, last]) =>
      (bom ? '\uFEFF' : '') + lines.map(([line, ending]) => line + ending).join('') + (last ?? ''),
  );

/** Bodies of CRLF or LF records of realistic shape, as a provider would send them. */
export const providerBodyArbitrary = fc
  .tuple(
    lineEndingArbitrary,
    fc.array(
      fc.oneof(
        fc.json({ maxDepth: 2 }).map((json) => ['data: ' + json]),
        fc.tuple(fc.constantFrom('message_start', 'ping', 'error'), fc.json({ maxDepth: 1 })).map(
          ([event, json]) => [`event: ${event}`, `data: ${json}`],
        ),
        fc.constant([': keep-alive']),
        fc.constant(['data: [DONE]']),
      ),
      { maxLength: 12 },
    ),
  )
  .map(([ending, records]) => records.map((lines) => lines.map((line) => line + ending).join('') + ending).join(''));
