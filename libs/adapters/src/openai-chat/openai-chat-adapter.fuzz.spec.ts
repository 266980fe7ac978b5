import fc from 'fast-check';
import { checkInvariants, isTerminalEvent, type ContractEvent } from '@llm-stream/contract';
import { loadTranscripts, recordTexts } from '../../test/conformance-harness.js';
import { runTranscript } from '../session/run-transcript.js';
import { chunkBytes, chunkRecord, soupRecord } from './__fixtures__/openai-chat-arbitraries.js';
import { OpenAiChatAdapter } from './openai-chat-adapter.js';

const encoder = new TextEncoder();
const transcripts = loadTranscripts('openai-chat').map((transcript) => recordTexts(transcript.body).texts);

function normalize(body: Uint8Array | string, cuts: readonly number[] = [], maxFrameBytes?: number): ContractEvent[] {
  const bytes = typeof body === 'string' ? encoder.encode(body) : body;
  return runTranscript('openai-chat', chunkBytes(bytes, cuts), {
    createAdapter: () => new OpenAiChatAdapter(),
    clock: () => 0,
    ...(maxFrameBytes !== undefined && { maxFrameBytes }),
  }).events;
}

/** Whatever came in: exactly one terminal event, last, and a stream that keeps every contract rule. */
function expectWellFormed(events: readonly ContractEvent[]): void {
  const terminals = events.filter(isTerminalEvent);
  expect(terminals).toHaveLength(1);
  expect(events.at(-1)).toBe(terminals[0]);
  expect(checkInvariants(events)).toEqual([]);
}

/** The JSON payload of a `data:` record, or undefined for `[DONE]`, comments and the transcripts' broken records. */
function jsonPayload(record: string): unknown {
  if (!record.startsWith('data: ')) return undefined;
  try {
    return JSON.parse(record.slice('data: '.length)) as unknown;
  } catch {
    return undefined;
  }
}

/** Every path to a value inside a JSON document, as key lists. */
function paths(value: unknown, prefix: readonly (string | number)[] = []): (string | number)[][] {
  const own = prefix.length > 0 ? [[...prefix]] : [];
  if (Array.isArray(value)) return [...own, ...value.flatMap((item, index) => paths(item, [...prefix, index]))];
  if (typeof value === 'object' && value !== null) {
    return [...own, ...Object.entries(value).flatMap(([key, item]) => paths(item, [...prefix, key]))];
  }
  return own;
}

/** The document with the value at `path` replaced (or removed when `replacement` is undefined). */
function replaceAt(document: unknown, path: readonly (string | number)[], replacement: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return replacement;
  if (Array.isArray(document)) {
    const copy: unknown[] = [...document];
    if (typeof head === 'number') copy[head] = replaceAt(copy[head], rest, replacement);
    return copy;
  }
  if (typeof document === 'object' && document !== null) {
    const next = replaceAt((document as Record<string, unknown>)[head], rest, replacement);
    // Removing the key is a mutation too: a field a chunk normally has may simply be missing.
    return Object.fromEntries(
      Object.entries(document).flatMap(([key, value]) => (key !== String(head) ? [[key, value]] : next === undefined ? [] : [[key, next]])),
    );
  }
  return document;
}

const transcriptRecords = fc.constantFrom(...transcripts);
const cuts = fc.array(fc.nat(), { maxLength: 12 });

describe('OpenAiChatAdapter fuzzing (never throws, one terminal event, contract kept)', () => {
  it('survives random soups of chat records in any order', () => {
    fc.assert(
      fc.property(fc.array(soupRecord, { maxLength: 25 }), cuts, (records, at) => {
        expectWellFormed(normalize(records.join(''), at));
      }),
      { numRuns: 4000 },
    );
  });

  it('survives the transcripts with records shuffled, duplicated and dropped', () => {
    fc.assert(
      fc.property(
        transcriptRecords.chain((records) =>
          fc.tuple(fc.shuffledSubarray(records), fc.array(fc.nat(records.length), { maxLength: 4 })).map(([kept, duplicates]) => {
            const out = [...kept];
            for (const position of duplicates) {
              const record = out[position % Math.max(1, out.length)];
              if (record !== undefined) out.splice(position % (out.length + 1), 0, record);
            }
            return out;
          }),
        ),
        cuts,
        (records, at) => {
          expectWellFormed(normalize(records.join(''), at));
        },
      ),
      { numRuns: 2500 },
    );
  });

  it('survives wrong types, removed keys and odd values anywhere in a transcript chunk', () => {
    const mutation = transcriptRecords.chain((records) =>
      fc.record({
        records: fc.constant(records),
        target: fc.nat(records.length - 1),
        pathChoice: fc.nat(),
        replacement: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined), fc.constantFrom('', null, -1, 1.5, 'error', [], {})),
      }),
    );
    fc.assert(
      fc.property(mutation, ({ records, target, pathChoice, replacement }) => {
        const mutated = records.map((record, index) => {
          const document = index === target ? jsonPayload(record) : undefined;
          if (document === undefined) return record;
          const all = paths(document);
          const path = all[pathChoice % Math.max(1, all.length)] ?? [];
          return `data: ${JSON.stringify(replaceAt(document, path, replacement) ?? null)}\n\n`;
        });
        expectWellFormed(normalize(mutated.join('')));
      }),
      { numRuns: 2500 },
    );
  });

  it('survives transcripts cut at any byte', () => {
    fc.assert(
      fc.property(transcriptRecords, fc.nat(), cuts, (records, end, at) => {
        const bytes = encoder.encode(records.join(''));
        expectWellFormed(normalize(bytes.subarray(0, end % (bytes.length + 1)), at));
      }),
      { numRuns: 1000 },
    );
  });

  it('survives binary garbage, alone or after valid chunks', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.uint8Array({ maxLength: 400 }), cuts, (prefixed, garbage, at) => {
        const prefix = prefixed ? encoder.encode(chunkRecord({ content: 'ok' }) + 'data: ') : new Uint8Array();
        const body = new Uint8Array(prefix.length + garbage.length);
        body.set(prefix);
        body.set(garbage, prefix.length);
        expectWellFormed(normalize(body, at));
      }),
      { numRuns: 500 },
    );
  });

  it('survives huge lines, under and over the frame size limit', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60_000 }), fc.integer({ min: 64, max: 70_000 }), fc.boolean(), (size, limit, done) => {
        const records = [chunkRecord({ content: 'x'.repeat(size) }), chunkRecord({}, 'stop'), ...(done ? ['data: [DONE]\n\n'] : [])];
        const events = normalize(records.join(''), [size % 7_919, size], limit);
        expectWellFormed(events);
        // A frame over the limit fails the stream; when every frame fits, the answer completes. (A margin of a
        // few bytes keeps the check off the exact boundary, which is the decoder's business.)
        const largest = Math.max(...records.map((record) => encoder.encode(record).length));
        const terminal = events.at(-1);
        if (largest > limit + 4) expect(terminal).toMatchObject({ type: 'stream.error', status: 'failed', error: { category: 'protocol_error' } });
        if (largest < limit - 4 && done) expect(terminal).toMatchObject({ type: 'stream.done' });
      }),
      { numRuns: 200 },
    );
  });
});
