import fc from 'fast-check';
import { checkInvariants, isTerminalEvent, type ContractEvent } from '@llm-stream/contract';
import { recordTexts, type Transcript } from './conformance-harness.js';
import { binaryJunk, damagedBodies, mutatedRecords } from './fuzz-mutations.js';

/** What a fuzz run must end with: exactly one terminal event, last, and every invariant kept. */
export function expectWellFormed(events: readonly ContractEvent[]): void {
  expect(events.filter(isTerminalEvent)).toHaveLength(1);
  expect(events.at(-1)?.type).toMatch(/^stream\.(done|error)$/);
  expect(checkInvariants(events)).toStrictEqual([]);
}

export interface TranscriptFuzzing {
  /** The whole pipeline (decoder, adapter, session, state machine) over a body, whole or in chunks. */
  readonly normalize: (body: Buffer | string | readonly (Buffer | string)[]) => ContractEvent[];
  /** The protocol's recorded transcripts, mutated by three of the cases. */
  readonly transcripts: readonly Transcript[];
  /** One record built from the protocol's vocabulary, with wrong types and cut JSON mixed in. */
  readonly record: fc.Arbitrary<string>;
  /** A plausible start, so that random records often reach blocks and terminal events. */
  readonly prologue: string;
  readonly numRuns: { readonly random: number; readonly shuffled: number; readonly damaged: number; readonly junk: number };
}

/**
 * The fuzz cases every adapter of a record-per-event protocol shares, in the current `describe`: random records
 * in any order, the transcripts' records shuffled, duplicated and dropped, their bytes truncated, flipped and
 * re-chunked, and binary junk alone or between records.
 */
export function fuzzTranscripts({ normalize, transcripts, record, prologue, numRuns }: TranscriptFuzzing): void {
  const bodies = transcripts.map((transcript) => transcript.body);
  const recordLists = transcripts.map((transcript) => recordTexts(transcript.body).texts);

  it('handles random sequences of known, unknown and malformed records, in any order', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.array(record, { maxLength: 30 }), (withPrologue, records) => {
        expectWellFormed(normalize((withPrologue ? prologue : '') + records.join('')));
      }),
      { numRuns: numRuns.random },
    );
  });

  it("handles our transcripts' records shuffled, duplicated and dropped", () => {
    fc.assert(
      fc.property(mutatedRecords(recordLists), (texts) => {
        expectWellFormed(normalize(texts.join('')));
      }),
      { numRuns: numRuns.shuffled },
    );
  });

  it('handles our transcripts truncated at any byte, flipped bytes and random chunking', () => {
    fc.assert(
      fc.property(damagedBodies(bodies), (chunks) => {
        expectWellFormed(normalize(chunks));
      }),
      { numRuns: numRuns.damaged },
    );
  });

  it('handles binary bodies and binary junk between valid records', () => {
    fc.assert(
      fc.property(binaryJunk(recordLists), ({ alone, between }) => {
        expectWellFormed(normalize(alone));
        expectWellFormed(normalize(between));
      }),
      { numRuns: numRuns.junk },
    );
  });
}
