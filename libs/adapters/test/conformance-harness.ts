import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { assemble, checkInvariants, type AssembledResult, type ContractEvent, type ProviderName } from '@llm-stream/contract';
import type { ProviderAdapter } from '../src/adapter.js';
import { runTranscript, type TranscriptResult } from '../src/session/run-transcript.js';
import { conformanceRunOptions } from '../src/session/conformance-run.js';
import { createSseDecoder } from '../src/sse/sse-decoder.js';

/**
 * The conformance kit's runner. Each transcript in conformance/transcripts/<provider>/ is the HTTP body as
 * received (`<case>.sse`), the outcome a correct normalizer must reach (`<case>.expect.json`, format in the
 * kit's README) and our full normalized event list (`<case>.events.json`, regenerated with UPDATE_GOLDEN=1
 * and reviewed like code). CONFORMANCE_TRANSCRIPTS_DIR runs the kit over another corpus of the same layout
 * (the e2e suite checks fixtures `llm-stream export` wrote that way).
 */
export const TRANSCRIPTS_DIR = process.env['CONFORMANCE_TRANSCRIPTS_DIR'] ?? resolve(__dirname, '../../../conformance/transcripts');

export interface Transcript {
  readonly provider: ProviderName;
  readonly name: string;
  readonly body: Buffer;
  readonly expect: Expectation;
  readonly goldenPath: string;
}

/** The `.expect.json` fields; only those present are compared. */
export interface Expectation {
  readonly terminal?: 'completed' | 'failed' | 'interrupted';
  readonly blocks?: readonly ExpectedBlock[];
  readonly stop_reason?: string | null;
  readonly stop_reason_normalized?: string | null;
  readonly error_category?: string | null;
  readonly provider_code?: string | null;
  readonly retryable?: boolean | null;
  readonly usage?: Readonly<Record<string, number | Readonly<Record<string, number>>>> | null;
  readonly notes?: string;
}

export interface ExpectedBlock {
  readonly index: number;
  readonly kind: string;
  readonly text?: string;
  readonly name?: string;
  readonly call_id?: string | null;
  readonly complete?: boolean;
  readonly arguments?: unknown;
  readonly signature?: string;
}

export function loadTranscripts(provider: ProviderName): Transcript[] {
  const dir = join(TRANSCRIPTS_DIR, provider);
  return readdirSync(dir)
    .filter((file) => file.endsWith('.sse'))
    .sort()
    .map((file) => {
      const name = file.slice(0, -'.sse'.length);
      return {
        provider,
        name,
        body: readFileSync(join(dir, file)),
        expect: JSON.parse(readFileSync(join(dir, `${name}.expect.json`), 'utf8')) as Expectation,
        goldenPath: join(dir, `${name}.events.json`),
      };
    });
}

/** Deterministic run: fixed ids, and a clock that advances 1 ms per trace record. */
export function normalizeForKit(
  provider: ProviderName,
  body: Buffer | string | Iterable<Buffer | string>,
  createAdapter: () => ProviderAdapter,
): TranscriptResult {
  return runTranscript(provider, body, { createAdapter, ...conformanceRunOptions() });
}

/** Differences between the assembled result and the expectation, as readable lines (empty = conforms). */
export function compareWithExpectation(result: AssembledResult, expect: Expectation): string[] {
  const problems: string[] = [];
  const check = (what: string, actual: unknown, expected: unknown): void => {
    if (JSON.stringify(actual) !== JSON.stringify(expected)) {
      problems.push(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
    }
  };
  if (expect.terminal !== undefined) check('terminal', result.status, expect.terminal);
  if (expect.stop_reason !== undefined) check('stop_reason', result.provider_stop_reason, expect.stop_reason);
  if (expect.stop_reason_normalized !== undefined) check('stop_reason_normalized', result.stop_reason, expect.stop_reason_normalized);
  if (expect.error_category !== undefined) check('error_category', result.error?.category ?? null, expect.error_category);
  if (expect.provider_code !== undefined) check('provider_code', result.error?.provider_code ?? null, expect.provider_code);
  if (expect.retryable !== undefined) check('retryable', result.error?.retryable ?? null, expect.retryable);
  if (expect.usage !== undefined && expect.terminal === 'completed') check('usage', result.usage, expect.usage);
  if (expect.blocks !== undefined) {
    check('block count', result.blocks.length, expect.blocks.length);
    expect.blocks.forEach((wanted, position) => {
      const block = result.blocks[position];
      const at = `block ${String(position)}`;
      if (!block) return;
      check(`${at} index`, block.index, wanted.index);
      check(`${at} kind`, block.kind, wanted.kind);
      if (wanted.text !== undefined) check(`${at} text`, block.kind === 'tool_call' ? block.raw_arguments : block.text, wanted.text);
      if (wanted.name !== undefined) check(`${at} name`, block.name, wanted.name);
      // `call_id: null` means the provider sent none: any synthesized id is accepted, but there must be one.
      if (wanted.call_id === null) {
        if (block.kind === 'tool_call' && typeof block.call_id !== 'string') problems.push(`${at} call_id: expected a synthesized id`);
      } else if (wanted.call_id !== undefined) check(`${at} call_id`, block.call_id, wanted.call_id);
      if (wanted.complete !== undefined) check(`${at} complete`, block.complete, wanted.complete);
      if (wanted.arguments !== undefined) check(`${at} arguments`, block.arguments, wanted.arguments);
      else if (wanted.complete === false) check(`${at} arguments (must be absent)`, block.arguments, undefined);
      if (wanted.signature !== undefined) check(`${at} signature`, block.signature, wanted.signature);
    });
  }
  return problems;
}

/** Compares with (or, with UPDATE_GOLDEN=1, rewrites) the transcript's full event list. */
export function expectGoldenEvents(transcript: Transcript, events: readonly ContractEvent[]): void {
  const rendered = `[\n${events.map((event) => JSON.stringify(event)).join(',\n')}\n]\n`;
  if (process.env['UPDATE_GOLDEN'] === '1' || !existsSync(transcript.goldenPath)) {
    if (process.env['CI'] && !existsSync(transcript.goldenPath)) throw new Error(`missing golden file ${transcript.goldenPath}`);
    writeFileSync(transcript.goldenPath, rendered);
  }
  const golden = JSON.parse(readFileSync(transcript.goldenPath, 'utf8')) as unknown;
  expect(events).toEqual(golden);
}

/** Runs the kit's three checks on one transcript: expectation, invariants, exact event list. */
export function expectConformance(transcript: Transcript, createAdapter: () => ProviderAdapter): TranscriptResult {
  const result = normalizeForKit(transcript.provider, transcript.body, createAdapter);
  expect(compareWithExpectation(assemble(result.events), transcript.expect)).toEqual([]);
  expect(checkInvariants(result.events)).toEqual([]);
  expectGoldenEvents(transcript, result.events);
  return result;
}

/** The records of a body as the decoder cuts them (the unit at which noise can be inserted). */
export function recordTexts(body: Buffer): { texts: string[]; partialTail: boolean } {
  const decoder = createSseDecoder();
  const frames = [...decoder.push(body), ...decoder.end()];
  return { texts: frames.map((frame) => frame.text), partialTail: frames.at(-1)?.partial === true };
}

/**
 * The events that must not change when noise is added and chunking changes: warnings (noise may add them)
 * are dropped and seq/ts, which count inputs, are left out.
 */
export function essentialEvents(events: readonly ContractEvent[]): unknown[] {
  return events
    .filter((event) => event.type !== 'stream.warning')
    .map(({ seq: _seq, ts: _ts, ...rest }) => rest);
}

/**
 * fast-check arbitrary: the transcript's records with noise records inserted at random record boundaries,
 * cut into random byte chunks (which fall inside UTF-8 characters and between CR and LF).
 */
export function noisyChunks(body: Buffer, noise: readonly string[]): fc.Arbitrary<Buffer[]> {
  const { texts, partialTail } = recordTexts(body);
  // Noise goes between records, never after a trailing partial record (it would complete it).
  const lastPosition = texts.length - (partialTail ? 1 : 0);
  return fc
    .array(fc.tuple(fc.integer({ min: 0, max: lastPosition }), fc.constantFrom(...(noise.length > 0 ? noise : ['']))), { maxLength: 8 })
    .chain((insertions) => {
      const pieces = [...texts];
      // Insert from the end so earlier positions stay valid.
      for (const [position, text] of [...insertions].sort((a, b) => b[0] - a[0])) pieces.splice(position, 0, text);
      const bytes = Buffer.from(pieces.join(''), 'utf8');
      return fc
        .uniqueArray(fc.integer({ min: 1, max: Math.max(1, bytes.length - 1) }), { maxLength: 40 })
        .map((cuts) => {
          const sorted = [...cuts].sort((a, b) => a - b);
          const chunks: Buffer[] = [];
          let start = 0;
          for (const cut of sorted) {
            chunks.push(bytes.subarray(start, cut));
            start = cut;
          }
          chunks.push(bytes.subarray(start));
          return chunks;
        });
    });
}
