import type { AssembledBlock, AssembledResult } from '@llm-stream/contract';

/** What a replay check compares of a stream's outcome (its assembled result). */
export type OutcomeField = 'status' | 'stop_reason' | 'provider_stop_reason' | 'error_category' | 'usage' | 'blocks' | 'tool_arguments';

/** One difference between the stored outcome and the replayed one, with both values. */
export interface OutcomeChange {
  readonly field: OutcomeField;
  /** The block's index, for `blocks` and `tool_arguments`. */
  readonly block?: number;
  readonly stored: unknown;
  readonly replayed: unknown;
}

/**
 * The differences between two outcomes of one stream: status, stop reason (normalized and the provider's),
 * error category, usage, each block (kind, text, name, call id, raw arguments, completeness, signature) and
 * each tool call's parsed arguments. Member order never counts (the stored side went through a database).
 */
export function outcomeChanges(stored: AssembledResult, replayed: AssembledResult): OutcomeChange[] {
  const changes: OutcomeChange[] = [];
  const compare = (field: OutcomeField, before: unknown, after: unknown, block?: number): void => {
    if (canonical(before) !== canonical(after)) changes.push({ field, ...(block !== undefined && { block }), stored: before ?? null, replayed: after ?? null });
  };
  compare('status', stored.status, replayed.status);
  compare('stop_reason', stored.stop_reason, replayed.stop_reason);
  compare('provider_stop_reason', stored.provider_stop_reason, replayed.provider_stop_reason);
  compare('error_category', stored.error?.category, replayed.error?.category);
  compare('usage', stored.usage, replayed.usage);
  const count = Math.max(stored.blocks.length, replayed.blocks.length);
  for (let index = 0; index < count; index += 1) {
    const before = stored.blocks[index];
    const after = replayed.blocks[index];
    compare('blocks', before && blockShape(before), after && blockShape(after), index);
    if (before?.kind === 'tool_call' || after?.kind === 'tool_call') compare('tool_arguments', before?.arguments, after?.arguments, index);
  }
  return changes;
}

/** A block without its parsed arguments (compared on their own) and opaque provider data. */
function blockShape(block: AssembledBlock): unknown {
  const { arguments: _arguments, provider_metadata: _metadata, ...shape } = block;
  return shape;
}

/** JSON with object members sorted, so equal values compare equal whatever their member order. */
function canonical(value: unknown): string {
  return JSON.stringify(value ?? null, (_key, member: unknown) =>
    member !== null && typeof member === 'object' && !Array.isArray(member)
      ? Object.fromEntries(Object.entries(member).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : member,
  );
}
