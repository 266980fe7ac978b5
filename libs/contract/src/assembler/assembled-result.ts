import type { BlockKind } from '../events/block.js';
import type { ProviderMetadata } from '../events/provider-metadata.js';
import type { StopReason } from '../events/stop-reason.js';
import type { StreamErrorInfo } from '../events/stream-error.js';
import type { ToolArguments } from '../events/tool-arguments.js';
import type { Usage } from '../events/usage.js';

/** `open`: no terminal event yet (a live stream, or a log cut short). */
export type AssembledStatus = 'completed' | 'failed' | 'interrupted' | 'open';

/**
 * One block of the final content. For a stream that did not complete, the blocks are a draft: the text
 * received so far, never a result to act on.
 */
export interface AssembledBlock {
  readonly index: number;
  readonly kind: BlockKind;
  /** Concatenated text deltas: text, reasoning and refusal blocks (possibly empty). */
  readonly text?: string;
  /** Tool calls: name and provider call id, when the provider sent them. */
  readonly name?: string;
  readonly call_id?: string;
  /** Tool calls: the argument text exactly as concatenated, also for an unfinished call. */
  readonly raw_arguments?: string;
  /**
   * Tool calls: the parsed arguments, only when the block was stopped and its arguments parse as a JSON
   * object (an empty string is `{}`). Never present on an unfinished call.
   */
  readonly arguments?: ToolArguments;
  /** Reasoning: concatenated signature deltas, byte-exact. */
  readonly signature?: string;
  /** Opaque provider data of the block's block.stop, byte-exact. */
  readonly provider_metadata?: ProviderMetadata;
  /** The block received its block.stop. */
  readonly complete: boolean;
}

export const ASSEMBLY_PROBLEM_CODES = [
  'invalid_tool_arguments',
  'delta_without_open_block',
  'stop_without_open_block',
  'duplicate_block_start',
  'block_ref_mismatch',
  'done_with_open_block',
  'event_after_terminal',
] as const;
export type AssemblyProblemCode = (typeof ASSEMBLY_PROBLEM_CODES)[number];

/**
 * The events broke the contract in a way the assembler noticed. It is a protocol error of the stream
 * (the producer's fault, like a `protocol_error` stream.error), never a tool error: a tool call whose
 * arguments do not parse was not the tool's doing. The offending event is otherwise ignored.
 */
export interface AssemblyProblem {
  readonly category: 'protocol_error';
  readonly code: AssemblyProblemCode;
  /** seq of the offending event. */
  readonly seq: number;
  readonly block_index?: number;
  readonly message: string;
}

/**
 * A stream folded into its result, in the shape of `llm-stream assemble`'s output: `stop_reason`,
 * `provider_stop_reason` and `usage` are `null` unless stream.done set them; `error` is `null` unless
 * stream.error set it.
 */
export interface AssembledResult {
  readonly status: AssembledStatus;
  readonly stop_reason: StopReason | null;
  readonly provider_stop_reason: string | null;
  readonly usage: Usage | null;
  readonly error: StreamErrorInfo | null;
  readonly response_id?: string;
  readonly provider_model?: string;
  /** Response-level opaque provider data of stream.done. */
  readonly provider_metadata?: ProviderMetadata;
  /** In index order (order of first appearance). */
  readonly blocks: readonly AssembledBlock[];
  /** Empty for a stream that keeps the contract. */
  readonly problems: readonly AssemblyProblem[];
}
