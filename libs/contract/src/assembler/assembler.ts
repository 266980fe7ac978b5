import type { BlockRef } from '../events/block.js';
import type {
  BlockDeltaEvent,
  BlockStartEvent,
  BlockStopEvent,
  ContractEvent,
  StreamDoneEvent,
} from '../events/contract-event.js';
import type { ProviderMetadata } from '../events/provider-metadata.js';
import type { StreamErrorInfo } from '../events/stream-error.js';
import { parseToolArguments, type ToolArguments } from '../events/tool-arguments.js';
import type {
  AssembledBlock,
  AssembledResult,
  AssembledStatus,
  AssemblyProblem,
  AssemblyProblemCode,
} from './assembled-result.js';

interface BlockBuffer {
  readonly ref: BlockRef;
  readonly name: string | undefined;
  readonly callId: string | undefined;
  /** Text deltas, or the raw arguments of a tool call. */
  text: string;
  signature: string | undefined;
  metadata: ProviderMetadata | undefined;
  args: ToolArguments | undefined;
  complete: boolean;
}

/**
 * Folds a stream's events into its result, one event at a time, for live streams (the backend client
 * library) as well as whole logs ({@link assemble}). One buffer per block (never one per response): tool
 * arguments are parsed once, at the block's block.stop, and an unfinished call never gets arguments.
 *
 * Events that break the contract are recorded as {@link AssemblyProblem}s and otherwise ignored, so the
 * result stays what the valid events say. `result()` returns a fresh snapshot; later pushes never change it.
 */
export class Assembler {
  private status: AssembledStatus = 'open';
  private done: StreamDoneEvent | undefined;
  private error: StreamErrorInfo | null = null;
  private readonly blocks = new Map<number, BlockBuffer>();
  private readonly problems: AssemblyProblem[] = [];

  push(event: ContractEvent): void {
    if (this.status !== 'open') {
      this.problem('event_after_terminal', event.seq, `${event.type} after the terminal event`);
      return;
    }
    switch (event.type) {
      case 'block.start':
        this.start(event);
        return;
      case 'block.delta':
        this.append(event);
        return;
      case 'block.stop':
        this.stop(event);
        return;
      case 'stream.done':
        this.finish(event);
        return;
      case 'stream.error':
        this.status = event.status;
        this.error = event.error;
        return;
      case 'stream.start':
      case 'stream.heartbeat':
      case 'stream.warning':
        // Neither changes the content: heartbeats and warnings are optional for clients by contract.
        return;
    }
  }

  result(): AssembledResult {
    const done = this.done;
    const result: {
      -readonly [K in keyof AssembledResult]: AssembledResult[K];
    } = {
      status: this.status,
      stop_reason: done?.stop_reason ?? null,
      provider_stop_reason: done?.provider_stop_reason ?? null,
      usage: done?.usage ?? null,
      error: this.error,
      blocks: [...this.blocks.values()].sort((a, b) => a.ref.index - b.ref.index).map(toAssembledBlock),
      problems: [...this.problems],
    };
    if (done?.response_id !== undefined) result.response_id = done.response_id;
    if (done?.provider_model !== undefined) result.provider_model = done.provider_model;
    if (done?.provider_metadata !== undefined) result.provider_metadata = done.provider_metadata;
    return result;
  }

  private start(event: BlockStartEvent): void {
    const { index } = event.block;
    if (this.blocks.has(index)) {
      this.problem('duplicate_block_start', event.seq, `second block.start for block ${index}`, index);
      return;
    }
    this.blocks.set(index, {
      ref: event.block,
      name: event.name,
      callId: event.call_id,
      text: '',
      signature: undefined,
      metadata: undefined,
      args: undefined,
      complete: false,
    });
  }

  private append(event: BlockDeltaEvent): void {
    const block = this.openBlock(event, 'delta_without_open_block');
    if (block === undefined) return;
    if (event.delta.kind === 'signature') block.signature = (block.signature ?? '') + event.delta.text;
    else block.text += event.delta.text;
  }

  private stop(event: BlockStopEvent): void {
    const block = this.openBlock(event, 'stop_without_open_block');
    if (block === undefined) return;
    block.complete = true;
    block.metadata = event.provider_metadata;
    if (block.ref.kind !== 'tool_call') return;
    const parsed = parseToolArguments(block.text);
    if (parsed.ok) {
      block.args = parsed.value;
    } else {
      const message = `tool_call block ${block.ref.index} stopped, but ${parsed.error.message}`;
      this.problem('invalid_tool_arguments', event.seq, message, block.ref.index);
    }
  }

  private finish(event: StreamDoneEvent): void {
    this.status = 'completed';
    this.done = event;
    const open = [...this.blocks.values()].filter((block) => !block.complete).map((block) => block.ref.index);
    if (open.length > 0) {
      this.problem('done_with_open_block', event.seq, `stream.done while block ${open.join(', ')} is open`);
    }
  }

  /** The started, unstopped block an event names, or a recorded problem. */
  private openBlock(event: BlockDeltaEvent | BlockStopEvent, code: AssemblyProblemCode): BlockBuffer | undefined {
    const { index, id, kind } = event.block;
    const block = this.blocks.get(index);
    if (block === undefined || block.complete) {
      const why = block === undefined ? 'was never started' : 'is already stopped';
      this.problem(code, event.seq, `${event.type} for block ${index}, which ${why}`, index);
      return undefined;
    }
    if (block.ref.id !== id || block.ref.kind !== kind) {
      const message = `${event.type} names block ${index} as ${kind} ${id}, but it started as ${block.ref.kind} ${block.ref.id}`;
      this.problem('block_ref_mismatch', event.seq, message, index);
      return undefined;
    }
    return block;
  }

  private problem(code: AssemblyProblemCode, seq: number, message: string, blockIndex?: number): void {
    this.problems.push(
      blockIndex === undefined
        ? { category: 'protocol_error', code, seq, message }
        : { category: 'protocol_error', code, seq, block_index: blockIndex, message },
    );
  }
}

function toAssembledBlock(block: BlockBuffer): AssembledBlock {
  const out: { -readonly [K in keyof AssembledBlock]: AssembledBlock[K] } = {
    index: block.ref.index,
    kind: block.ref.kind,
    complete: block.complete,
  };
  if (block.ref.kind === 'tool_call') {
    out.raw_arguments = block.text;
    if (block.args !== undefined) out.arguments = block.args;
  } else {
    out.text = block.text;
  }
  if (block.name !== undefined) out.name = block.name;
  if (block.callId !== undefined) out.call_id = block.callId;
  if (block.signature !== undefined) out.signature = block.signature;
  if (block.metadata !== undefined) out.provider_metadata = block.metadata;
  return out;
}
