import type { AppendBlockInput, DeltaKind } from '@llm-stream/contract';

/**
 * A fragment for a block. Empty fragments of a started block carry nothing and are dropped (Anthropic's
 * first `partial_json` is "", thinking deltas can be empty); a fragment for a block that was never started
 * is passed on even when empty, so the state machine reports the broken rule.
 */
export function fragment(key: string, kind: DeltaKind, text: string | undefined, started: boolean): readonly AppendBlockInput[] {
  if (started && !text) return [];
  return [{ type: 'block.append', key, delta: { kind, text: text ?? '' } }];
}
