import { assertNever } from '../assert-never.js';
import { blockId, type BlockRef } from '../events/block.js';
import type { ContractEvent, StreamDoneEvent, StreamErrorEvent } from '../events/contract-event.js';
import { isDeltaAllowed } from '../events/delta.js';
import type { ProviderMetadata } from '../events/provider-metadata.js';
import type { ProviderName } from '../events/provider.js';
import type { StreamErrorInfo } from '../events/stream-error.js';
import type { Usage } from '../events/usage.js';
import { parseToolArguments } from '../events/tool-arguments.js';
import type {
  AppendBlockInput,
  CloseBlockInput,
  FailInput,
  FinishInput,
  MachineInput,
  OpenBlockInput,
} from './machine-input.js';
import { isTerminalState, type BlockState, type StreamState } from './stream-state.js';

/** Who the stream belongs to; copied into `stream.start` and `stream_id` of every event. */
export interface StreamIdentity {
  readonly stream_id: string;
  readonly provider: ProviderName;
  readonly model: string;
  readonly tenant: string;
  readonly route?: string;
}

interface BlockSlot {
  readonly ref: BlockRef;
  state: BlockState;
  /** Tool-call argument text, buffered so it can be parsed once at block.stop. Other kinds keep no text. */
  json: string | undefined;
}

/**
 * The only producer of public events. It is deterministic: events are a pure function of the inputs and
 * the timestamps passed in (it reads no clock and does no I/O), so replaying the same inputs yields the same
 * events, block ids and `seq`.
 *
 * A forbidden transition never reaches the client as such: it ends the stream with `stream.error`
 * (`failed`, `protocol_error`) naming the broken rule. After a terminal event every input is refused
 * silently (counted in {@link rejectedAfterTerminal}); blocks left open are closed only internally.
 */
export class StreamMachine {
  private streamState: StreamState = 'idle';
  private nextSeq = 1;
  private readonly blocks = new Map<string, BlockSlot>();
  private openBlocks = 0;
  private refusedInputs = 0;

  constructor(private readonly identity: StreamIdentity) {}

  get state(): StreamState {
    return this.streamState;
  }

  get isTerminal(): boolean {
    return isTerminalState(this.streamState);
  }

  /** Number of events emitted so far; the `seq` of the last one. */
  get lastSeq(): number {
    return this.nextSeq - 1;
  }

  /** Inputs that arrived after the terminal event and were dropped. */
  get rejectedAfterTerminal(): number {
    return this.refusedInputs;
  }

  /** `idle -> open`: emits `stream.start`. Starting twice is a programmer error. */
  start(ts: number): ContractEvent[] {
    if (this.streamState !== 'idle') {
      throw new Error(`StreamMachine.start called in state ${this.streamState}`);
    }
    this.streamState = 'open';
    const { stream_id, provider, model, tenant, route } = this.identity;
    return [{ type: 'stream.start', stream_id, seq: this.takeSeq(), ts, provider, model, tenant, ...(route !== undefined && { route }) }];
  }

  /** Applies one input; the events it caused (none or one). */
  apply(input: MachineInput, ts: number): ContractEvent[] {
    const event = this.step(input, ts);
    return event === undefined ? [] : [event];
  }

  /**
   * Applies one input and returns the one event it caused, if any: every input causes at most one event. The
   * session's hot path uses this to allocate no array per input.
   */
  step(input: MachineInput, ts: number): ContractEvent | undefined {
    if (this.streamState === 'idle') {
      throw new Error(`StreamMachine.apply(${input.type}) before start`);
    }
    if (isTerminalState(this.streamState)) {
      this.refusedInputs += 1;
      return undefined;
    }
    switch (input.type) {
      case 'block.open':
        return this.openBlock(input, ts);
      case 'block.append':
        return this.appendToBlock(input, ts);
      case 'block.close':
        return this.closeBlock(input, ts);
      case 'finish':
        return this.finish(input, ts);
      case 'fail':
        return this.fail(input, ts);
      case 'warn':
        return { type: 'stream.warning', stream_id: this.identity.stream_id, seq: this.takeSeq(), ts, warning: input.warning };
      case 'heartbeat':
        return { type: 'stream.heartbeat', stream_id: this.identity.stream_id, seq: this.takeSeq(), ts };
      default:
        return assertNever(input, 'machine input');
    }
  }

  private openBlock(input: OpenBlockInput, ts: number): ContractEvent {
    const existing = this.blocks.get(input.key);
    if (existing) {
      return this.violation(
        existing.state === 'open'
          ? `block.start for block ${existing.ref.index} (key ${input.key}), which is already open`
          : `block.start for block ${existing.ref.index} (key ${input.key}) after its block.stop`,
        ts,
      );
    }
    const index = this.blocks.size;
    const ref: BlockRef = { id: blockId(this.identity.stream_id, index), index, kind: input.kind };
    this.blocks.set(input.key, { ref, state: 'open', json: input.kind === 'tool_call' ? '' : undefined });
    this.openBlocks += 1;
    this.streamState = 'receiving';
    const event: {
      type: 'block.start';
      stream_id: string;
      seq: number;
      ts: number;
      block: BlockRef;
      name?: string;
      call_id?: string;
      visibility?: 'internal';
    } = { type: 'block.start', stream_id: this.identity.stream_id, seq: this.takeSeq(), ts, block: ref };
    if (input.name !== undefined) event.name = input.name;
    if (input.call_id !== undefined) event.call_id = input.call_id;
    if (input.kind === 'reasoning') event.visibility = 'internal';
    return event;
  }

  private appendToBlock(input: AppendBlockInput, ts: number): ContractEvent {
    const slot = this.blocks.get(input.key);
    if (!slot) {
      return this.violation(`block.delta for key ${input.key}, a block that was never started`, ts);
    }
    if (slot.state === 'closed') {
      return this.violation(`block.delta for block ${slot.ref.index} after its block.stop`, ts);
    }
    if (!isDeltaAllowed(slot.ref.kind, input.delta.kind)) {
      return this.violation(
        `block.delta of kind ${input.delta.kind} in ${slot.ref.kind} block ${slot.ref.index}`,
        ts,
      );
    }
    if (slot.json !== undefined) slot.json += input.delta.text;
    return { type: 'block.delta', stream_id: this.identity.stream_id, seq: this.takeSeq(), ts, block: slot.ref, delta: input.delta };
  }

  private closeBlock(input: CloseBlockInput, ts: number): ContractEvent {
    const slot = this.blocks.get(input.key);
    if (!slot) {
      return this.violation(`block.stop for key ${input.key}, a block that was never started`, ts);
    }
    if (slot.state === 'closed') {
      return this.violation(`second block.stop for block ${slot.ref.index}`, ts);
    }
    if (slot.json !== undefined) {
      // Tool arguments are parsed exactly once, here: partial JSON is not JSON, and an executor must never
      // see a call whose arguments do not parse. An empty string is a zero-parameter call.
      const parsed = parseToolArguments(slot.json);
      slot.json = undefined;
      if (!parsed.ok) {
        return this.violation(`tool_call block ${slot.ref.index} closed, but ${parsed.error.message}`, ts);
      }
    }
    slot.state = 'closed';
    this.openBlocks -= 1;
    const event: {
      type: 'block.stop';
      stream_id: string;
      seq: number;
      ts: number;
      block: BlockRef;
      provider_metadata?: ProviderMetadata;
    } = { type: 'block.stop', stream_id: this.identity.stream_id, seq: this.takeSeq(), ts, block: slot.ref };
    if (input.provider_metadata !== undefined) event.provider_metadata = input.provider_metadata;
    return event;
  }

  private finish(input: FinishInput, ts: number): ContractEvent {
    if (this.openBlocks > 0) {
      const open = [...this.blocks.values()].filter((slot) => slot.state === 'open').map((slot) => slot.ref.index);
      return this.violation(`stream.done while block ${open.join(', ')} is still open`, ts);
    }
    this.streamState = 'completed';
    const { type: _type, usage, ...fields } = input;
    const { stream_id } = this.identity;
    const event: StreamDoneEvent = { type: 'stream.done', stream_id, seq: this.takeSeq(), ts, status: 'completed', ...fields };
    return usage === undefined ? event : { ...event, usage: contractUsage(usage) };
  }

  private fail(input: FailInput, ts: number): ContractEvent {
    return this.terminate(input.status, input.error, ts);
  }

  private violation(rule: string, ts: number): ContractEvent {
    return this.terminate(
      'failed',
      { category: 'protocol_error', retryable: false, provider_code: null, message: `protocol violation: ${rule}` },
      ts,
    );
  }

  /** Ends the stream. Open blocks are closed internally only: no fake block.stop reaches the client. */
  private terminate(status: 'failed' | 'interrupted', error: StreamErrorInfo, ts: number): StreamErrorEvent {
    this.streamState = status;
    for (const slot of this.blocks.values()) {
      slot.state = 'closed';
      slot.json = undefined;
    }
    this.openBlocks = 0;
    return { type: 'stream.error', stream_id: this.identity.stream_id, seq: this.takeSeq(), ts, status, error };
  }

  private takeSeq(): number {
    const seq = this.nextSeq;
    this.nextSeq += 1;
    return seq;
  }
}

/**
 * The contract carries its optional counts only when non-zero. Providers report zeros (OpenAI's
 * `*_tokens_details`, Gemini's absent-or-0 counts, Anthropic's `cache_creation_input_tokens: 0`) and every
 * adapter would have to remember to drop them, so the one producer of public events does it.
 */
function contractUsage(usage: Usage): Usage {
  const { reasoning_tokens, cached_input_tokens, cache_creation_input_tokens, cache_creation, ...counts } = usage;
  return {
    ...counts,
    ...(nonZero(reasoning_tokens) && { reasoning_tokens }),
    ...(nonZero(cached_input_tokens) && { cached_input_tokens }),
    ...(nonZero(cache_creation_input_tokens) && { cache_creation_input_tokens }),
    ...(cache_creation !== undefined && Object.values(cache_creation).some(nonZero) && { cache_creation }),
  };
}

function nonZero(count: number | undefined): count is number {
  return count !== undefined && count !== 0;
}
