import type { BlockKind } from './block.js';

/**
 * What a `block.delta` carries:
 * - `text`: a text fragment (text, reasoning and refusal blocks);
 * - `json_text`: a raw fragment of a tool call's JSON arguments, never parseable alone;
 * - `signature`: an opaque integrity signature of a reasoning block (Anthropic `signature_delta`), byte-exact.
 */
export const DELTA_KINDS = ['text', 'json_text', 'signature'] as const;
export type DeltaKind = (typeof DELTA_KINDS)[number];

export interface Delta {
  readonly kind: DeltaKind;
  readonly text: string;
}

/**
 * Which delta kinds each block kind accepts. One table for the state machine (which refuses the others),
 * the JSON Schema (which rejects them per event) and the assembler.
 */
export const ALLOWED_DELTA_KINDS: Readonly<Record<BlockKind, readonly DeltaKind[]>> = {
  text: ['text'],
  refusal: ['text'],
  reasoning: ['text', 'signature'],
  tool_call: ['json_text'],
};

export function isDeltaAllowed(blockKind: BlockKind, deltaKind: DeltaKind): boolean {
  return ALLOWED_DELTA_KINDS[blockKind].includes(deltaKind);
}
