import type { Expectation, StoredEvent } from '../recorded-run.js';

/** A stream's outcome read off its stored events: the terminal, and each block's kind and concatenated text. */
export interface Outcome {
  readonly terminal: 'completed' | 'failed' | 'interrupted' | null;
  readonly errorCategory: string | null;
  readonly stopReason: string | null;
  readonly blocks: readonly { readonly index: number; readonly kind: string; readonly text: string }[];
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/**
 * Folds events by the contract's published shape (README "The contract"): the first terminal event wins,
 * deltas are concatenated per block index. Written independently of the project's assembler.
 */
export function outcomeOf(events: readonly StoredEvent[]): Outcome {
  const blocks = new Map<number, { index: number; kind: string; text: string }>();
  const seen = new Set<number>();
  let terminal: Outcome['terminal'] = null;
  let errorCategory: string | null = null;
  let stopReason: string | null = null;
  for (const event of [...events].sort((a, b) => a.seq - b.seq)) {
    if (seen.has(event.seq) || terminal !== null) continue;
    seen.add(event.seq);
    const block = field(event, 'block');
    const index = field(block, 'index');
    if (typeof index === 'number' && !blocks.has(index)) {
      blocks.set(index, { index, kind: text(field(block, 'kind')) ?? '?', text: '' });
    }
    if (event.type === 'block.delta' && typeof index === 'number') {
      const entry = blocks.get(index);
      const delta = field(event, 'delta');
      // Signatures are opaque data riding on a reasoning block, not its text.
      if (entry !== undefined && field(delta, 'kind') !== 'signature') entry.text += text(field(delta, 'text')) ?? '';
    } else if (event.type === 'stream.done') {
      terminal = 'completed';
      stopReason = text(field(event, 'stop_reason'));
    } else if (event.type === 'stream.error') {
      const status = text(field(event, 'status'));
      terminal = status === 'failed' ? 'failed' : 'interrupted';
      errorCategory = text(field(field(event, 'error'), 'category'));
    }
  }
  return { terminal, errorCategory, stopReason, blocks: [...blocks.values()].sort((a, b) => a.index - b.index) };
}

/** Why `outcome` differs from `expect` (the fields `.expect.json` has), or null when it matches. */
export function outcomeMismatch(outcome: Outcome, expect: Expectation): string | null {
  if (outcome.terminal !== expect.terminal) return `ended ${outcome.terminal ?? 'never'}, expected ${expect.terminal}`;
  if (expect.error_category !== undefined && expect.error_category !== null && outcome.errorCategory !== expect.error_category) {
    return `error category ${String(outcome.errorCategory)}, expected ${expect.error_category}`;
  }
  if (expect.terminal === 'completed' && expect.stop_reason_normalized != null && outcome.stopReason !== expect.stop_reason_normalized) {
    return `stop reason ${String(outcome.stopReason)}, expected ${expect.stop_reason_normalized}`;
  }
  const expected = expect.blocks ?? [];
  if (expect.blocks !== undefined && expected.length !== outcome.blocks.length) {
    return `${outcome.blocks.length} blocks, expected ${expected.length}`;
  }
  for (const [n, block] of expected.entries()) {
    const actual = outcome.blocks[n];
    if (actual?.kind !== block.kind) return `block ${n} is ${actual?.kind ?? 'missing'}, expected ${block.kind}`;
    if (block.text !== undefined && actual.text !== block.text) return `block ${n} text differs from the transcript's`;
  }
  return null;
}
