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
