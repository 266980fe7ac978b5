/** What a content block holds. The kind never changes during a block's life. */
export const BLOCK_KINDS = ['text', 'tool_call', 'reasoning', 'refusal'] as const;
export type BlockKind = (typeof BLOCK_KINDS)[number];

/**
 * Identifies a content block in every block event.
 * - `index`: the block's 0-based position in the final content, in order of first appearance;
 * - `id`: derived deterministically from the stream and the index ({@link blockId}), so a replay of the
 *   same inputs produces the same id.
 */
export interface BlockRef {
  readonly id: string;
  readonly index: number;
  readonly kind: BlockKind;
}

/** `<stream_id>.b<index>`: unique per stream, stable across replays and normalizer takeovers. */
export function blockId(streamId: string, index: number): string {
  return `${streamId}.b${String(index)}`;
}

/** Reasoning is never shown as ordinary text: its blocks are marked internal (the seed's protected channel). */
export type BlockVisibility = 'internal';
