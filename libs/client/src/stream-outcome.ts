import type {
  AssembledBlock,
  AssembledResult,
  AssembledStatus,
  AssemblyProblem,
  StopReason,
  StreamErrorInfo,
  ToolArguments,
  Usage,
} from '@llm-stream/contract';

/** A tool call the backend may execute: its block closed, its arguments parsed, and its stream completed. */
export interface ExecutableToolCall {
  /** The block's index in the response content. */
  readonly index: number;
  readonly name: string;
  /** The provider's call id, to send the tool result back with (absent only if the provider sent none). */
  readonly callId?: string;
  readonly arguments: ToolArguments;
}

/**
 * Why a tool call must not be executed:
 * - `stream_failed`, `stream_interrupted`, `stream_open`: the stream did not complete, so even a call whose
 *   block closed with valid JSON is only a draft (the seed: an interrupted response is never the agent's
 *   completed result);
 * - `block_not_closed`: the call's block never received its block.stop (partial JSON is not JSON);
 * - `invalid_arguments`: the block closed but its arguments are not a JSON object (a protocol error);
 * - `missing_name`: the provider never named the tool;
 * - `protocol_error`: an event of the block broke the contract, so its arguments cannot be trusted.
 */
export type UnexecutableReason =
  | 'stream_failed'
  | 'stream_interrupted'
  | 'stream_open'
  | 'block_not_closed'
  | 'invalid_arguments'
  | 'missing_name'
  | 'protocol_error';

/** A tool call that is reported, never executed. */
export interface UnexecutableToolCall {
  readonly index: number;
  readonly name?: string;
  readonly callId?: string;
  /** The argument text as received, possibly cut short. */
  readonly rawArguments: string;
  /** The call's block received its block.stop. */
  readonly closed: boolean;
  readonly reason: UnexecutableReason;
}

/**
 * A stream's assembled result, for a backend: status and metadata, the blocks, the concatenated text, and
 * the tool calls split into those to execute (only ever for a completed stream) and those to report.
 */
export interface StreamOutcome {
  readonly streamId: string;
  /** `completed`, `failed` or `interrupted`; `open` only when assembling a stream that has not ended. */
  readonly status: AssembledStatus;
  readonly stopReason: StopReason | null;
  readonly providerStopReason: string | null;
  readonly usage: Usage | null;
  readonly error: StreamErrorInfo | null;
  readonly blocks: readonly AssembledBlock[];
  /** The text blocks' text in index order (reasoning and refusal blocks excluded; see `blocks`). */
  readonly text: string;
  /** Non-empty only when `status` is `completed`. */
  readonly toolCalls: readonly ExecutableToolCall[];
  readonly unexecutableToolCalls: readonly UnexecutableToolCall[];
  /** Contract violations the assembler noticed; empty for a stream that keeps the contract. */
  readonly problems: readonly AssemblyProblem[];
}

/** Splits an assembled stream's tool calls into executable and reported ones. Pure. */
export function streamOutcome(streamId: string, result: AssembledResult): StreamOutcome {
  const toolCalls: ExecutableToolCall[] = [];
  const unexecutableToolCalls: UnexecutableToolCall[] = [];
  for (const block of result.blocks) {
    if (block.kind !== 'tool_call') continue;
    const verdict = classifyToolCall(result, block);
    if (typeof verdict !== 'string') {
      toolCalls.push(verdict);
      continue;
    }
    unexecutableToolCalls.push({
      index: block.index,
      ...(block.name === undefined ? {} : { name: block.name }),
      ...(block.call_id === undefined ? {} : { callId: block.call_id }),
      rawArguments: block.raw_arguments ?? '',
      closed: block.complete,
      reason: verdict,
    });
  }
  return {
    streamId,
    status: result.status,
    stopReason: result.stop_reason,
    providerStopReason: result.provider_stop_reason,
    usage: result.usage,
    error: result.error,
    blocks: result.blocks,
    text: result.blocks.map((block) => (block.kind === 'text' ? (block.text ?? '') : '')).join(''),
    toolCalls,
    unexecutableToolCalls,
    problems: result.problems,
  };
}

/** The call to execute, or the first reason that forbids it, in order of weight. */
function classifyToolCall(result: AssembledResult, block: AssembledBlock): ExecutableToolCall | UnexecutableReason {
  switch (result.status) {
    case 'failed':
      return 'stream_failed';
    case 'interrupted':
      return 'stream_interrupted';
    case 'open':
      return 'stream_open';
    case 'completed':
      break;
  }
  if (!block.complete) return 'block_not_closed';
  const problem = result.problems.find((candidate) => candidate.block_index === block.index);
  if (problem !== undefined) return problem.code === 'invalid_tool_arguments' ? 'invalid_arguments' : 'protocol_error';
  if (block.arguments === undefined) return 'invalid_arguments';
  if (block.name === undefined) return 'missing_name';
  return {
    index: block.index,
    name: block.name,
    ...(block.call_id === undefined ? {} : { callId: block.call_id }),
    arguments: block.arguments,
  };
}
