import type { AttemptEndRecord, MachineInput, UpstreamResponseRecord } from '@llm-stream/contract';
import type { ProviderAdapter } from '../adapter.js';
import { fragment } from '../shared/block-inputs.js';
import { numberField, objectField, parseJsonObject, stringField, type JsonObject, type PayloadError } from '../shared/json-payload.js';
import { optional } from '../shared/optional.js';
import { protocolFailure, providerFailure } from '../shared/protocol-failure.js';
import { unknownEvent, unknownPart } from '../shared/unknown-warning.js';
import type { SseFrame } from '../sse/sse-frame.js';
import { ANTHROPIC_EVENT_TYPES, type AnthropicEventType } from './anthropic-chunk.js';
import { mergeAnthropicUsage, toContractUsage, type AnthropicUsageState } from './convert-anthropic-usage.js';
import { mapAnthropicHttpError, mapAnthropicStreamError } from './map-anthropic-error.js';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';

/** What a started provider block became: a public block (by key) or a skipped unknown type. */
interface ProviderBlock {
  readonly key: string;
  readonly skipped: boolean;
  /** redacted_thinking carries its opaque data on the start event; it travels on block.stop. */
  readonly redactedData?: string;
  /** A tool_use whose start event carried a non-empty `input`: the arguments, unless input_json_delta follows. */
  readonly wholeInput?: string;
  /** Whether a non-empty input_json_delta arrived for this block. */
  streamedInput: boolean;
}

/**
 * Anthropic Messages: message_start, content_block_start/delta/stop per block (keyed by the provider's
 * `index`), message_delta (stop_reason, cumulative usage), message_stop — the only success signal — with
 * `ping` anywhere and `event: error` mid-stream. Blocks are stopped exactly where the provider stops them
 * (content_block_stop); none is ever stopped on the provider's behalf.
 * https://docs.anthropic.com/en/docs/build-with-claude/streaming
 *
 * | signal                                             | outcome                                             |
 * |----------------------------------------------------|-----------------------------------------------------|
 * | message_stop, every block stopped                  | completed, stop reason from the last message_delta  |
 * | message_stop while a block is open (fact 28)       | failed, protocol_error (named by the state machine) |
 * | event: error                                       | failed, category by error type (mapper)             |
 * | HTTP status >= 400 before any frame                | failed, category by status, code from the body      |
 * | invalid JSON, malformed event, 2nd message_start   | failed, protocol_error                              |
 * | body ends without message_stop or error            | interrupted (added by the session)                  |
 *
 * After the first of these nothing more is emitted. Unknown event, delta and block types are skipped and
 * reported; pings and citations_delta change nothing.
 *
 * Content can arrive whole on content_block_start instead of as deltas: a text block's `text` and a thinking
 * block's `thinking`/`signature` are the block's first delta; a tool_use `input` other than `{}` is the
 * call's arguments, emitted as one json_text delta at content_block_stop unless input_json_delta streamed
 * them (docs/protocol-survey.md).
 */
export class AnthropicAdapter implements ProviderAdapter {
  readonly provider = 'anthropic' as const;
  private ended = false;
  private messageStarted = false;
  private readonly blocks = new Map<number, ProviderBlock>();
  private stopReason: string | null = null;
  private readonly usage: AnthropicUsageState = {};
  private messageId: string | undefined;
  private model: string | undefined;

  response(record: UpstreamResponseRecord): readonly MachineInput[] {
    if (this.ended || record.status < 400) return [];
    return this.settle([mapAnthropicHttpError(record)]);
  }

  frame(frame: SseFrame): readonly MachineInput[] {
    if (this.ended || frame.data === undefined || frame.partial) return [];
    const parsed = parseJsonObject(frame.data);
    if (!parsed.ok) return this.settle([protocolFailure(`anthropic ${frame.event ?? 'event'}: ${payloadProblem(parsed.error)}`)]);
    const payload = parsed.value;
    const type = stringField(payload, 'type') ?? frame.event ?? '';
    if (!isKnownEvent(type)) return [unknownEvent(type)];
    return this.dispatch(type, payload);
  }

  end(_record: AttemptEndRecord): readonly MachineInput[] {
    return [];
  }

  private dispatch(type: AnthropicEventType, payload: JsonObject): readonly MachineInput[] {
    switch (type) {
      case 'message_start':
        return this.messageStart(payload);
      case 'content_block_start':
        return this.blockStart(payload);
      case 'content_block_delta':
        return this.blockDelta(payload);
      case 'content_block_stop':
        return this.blockStop(payload);
      case 'message_delta': {
        const delta = objectField(payload, 'delta');
        const reason = delta ? stringField(delta, 'stop_reason') : undefined;
        if (reason !== undefined) this.stopReason = reason;
        mergeAnthropicUsage(this.usage, objectField(payload, 'usage'), true);
        return [];
      }
      case 'message_stop':
        return this.settle([
          {
            type: 'finish',
            stop_reason: mapAnthropicStopReason(this.stopReason),
            provider_stop_reason: this.stopReason,
            ...optional('usage', toContractUsage(this.usage)),
            ...optional('response_id', this.messageId),
            ...optional('provider_model', this.model),
          },
        ]);
      case 'ping':
        return [];
      case 'error':
        return this.settle([providerFailure(mapAnthropicStreamError(payload))]);
    }
  }

  private messageStart(payload: JsonObject): readonly MachineInput[] {
    if (this.messageStarted) return this.settle([protocolFailure('anthropic: second message_start in one stream')]);
    this.messageStarted = true;
    const message = objectField(payload, 'message');
    if (message) {
      this.messageId = stringField(message, 'id');
      this.model = stringField(message, 'model');
      mergeAnthropicUsage(this.usage, objectField(message, 'usage'), false);
    }
    return [];
  }

  private blockStart(payload: JsonObject): readonly MachineInput[] {
    const index = numberField(payload, 'index');
    const block = objectField(payload, 'content_block');
    if (index === undefined || !block) return this.settle([protocolFailure('anthropic: content_block_start without index or content_block')]);
    const key = `a${String(index)}`;
    const blockType = stringField(block, 'type') ?? '';
    const existing = this.blocks.get(index);
    if (existing) {
      // A skipped block never reached the state machine, which would take this for a new block.
      if (existing.skipped) return this.settle([protocolFailure(`anthropic: second content_block_start for index ${String(index)}`)]);
      // Let the state machine name the broken rule (start for an open or closed block).
      return [{ type: 'block.open', key, kind: 'text' }];
    }
    switch (blockType) {
      case 'text': {
        this.blocks.set(index, { key, skipped: false, streamedInput: false });
        return [{ type: 'block.open', key, kind: 'text' }, ...fragment(key, 'text', stringField(block, 'text'), true)];
      }
      case 'tool_use': {
        this.blocks.set(index, { key, skipped: false, streamedInput: false, ...optional('wholeInput', wholeInput(block)) });
        const name = stringField(block, 'name');
        const callId = stringField(block, 'id');
        return [{ type: 'block.open', key, kind: 'tool_call', ...optional('name', name), ...optional('call_id', callId) }];
      }
      case 'thinking': {
        this.blocks.set(index, { key, skipped: false, streamedInput: false });
        return [
          { type: 'block.open', key, kind: 'reasoning' },
          ...fragment(key, 'text', stringField(block, 'thinking'), true),
          ...fragment(key, 'signature', stringField(block, 'signature'), true),
        ];
      }
      case 'redacted_thinking': {
        const data = stringField(block, 'data');
        this.blocks.set(index, { key, skipped: false, streamedInput: false, ...optional('redactedData', data) });
        return [{ type: 'block.open', key, kind: 'reasoning' }];
      }
      default:
        // Server tool calls, their results and future block types: skipped with their deltas, counted.
        this.blocks.set(index, { key, skipped: true, streamedInput: false });
        return [unknownPart(`content_block.${blockType}`)];
    }
  }

  private blockDelta(payload: JsonObject): readonly MachineInput[] {
    const index = numberField(payload, 'index');
    const delta = objectField(payload, 'delta');
    if (index === undefined || !delta) return this.settle([protocolFailure('anthropic: content_block_delta without index or delta')]);
    const block = this.blocks.get(index);
    if (block?.skipped) return [];
    const key = block?.key ?? `a${String(index)}`;
    const started = block !== undefined;
    const deltaType = stringField(delta, 'type') ?? '';
    switch (deltaType) {
      case 'text_delta':
        return fragment(key, 'text', stringField(delta, 'text'), started);
      case 'thinking_delta':
        return fragment(key, 'text', stringField(delta, 'thinking'), started);
      case 'input_json_delta': {
        const partial = stringField(delta, 'partial_json');
        if (block && partial) block.streamedInput = true;
        return fragment(key, 'json_text', partial, started);
      }
      case 'signature_delta':
        return fragment(key, 'signature', stringField(delta, 'signature'), started);
      case 'citations_delta':
        return [];
      default:
        return [unknownEvent(`content_block_delta.${deltaType}`)];
    }
  }

  private blockStop(payload: JsonObject): readonly MachineInput[] {
    const index = numberField(payload, 'index');
    if (index === undefined) return this.settle([protocolFailure('anthropic: content_block_stop without index')]);
    const block = this.blocks.get(index);
    if (block?.skipped) return [];
    const key = block?.key ?? `a${String(index)}`;
    if (block?.redactedData !== undefined) {
      return [{ type: 'block.close', key, provider_metadata: { anthropic: { redacted_thinking: block.redactedData } } }];
    }
    if (block?.wholeInput !== undefined) return [...this.wholeInputAtStop(key, block.wholeInput, block.streamedInput), { type: 'block.close', key }];
    return [{ type: 'block.close', key }];
  }

  /**
   * A tool_use whose `input` arrived whole on content_block_start: the SDK's MessageStream keeps that input
   * unless input_json_delta rebuilds it, so the arguments are known only at content_block_stop. Without deltas
   * they become the block's one json_text delta; with deltas the streamed arguments stand and the start's
   * input is reported as ignored.
   */
  private wholeInputAtStop(key: string, input: string, streamed: boolean): readonly MachineInput[] {
    if (!streamed) return [{ type: 'block.append', key, delta: { kind: 'json_text', text: input } }];
    const message = 'anthropic: tool_use input of content_block_start replaced by the streamed input_json_delta';
    return [{ type: 'warn', warning: { code: 'ignored_input', message, provider_event_type: 'content_block_start.tool_use' } }];
  }

  private settle(inputs: readonly MachineInput[]): readonly MachineInput[] {
    this.ended = true;
    return inputs;
  }
}

/**
 * The parse failure in words that are safe in a stream.error message: V8's JSON.parse errors quote the text
 * around the error, i.e. completion content, and change wording between Node versions.
 */
function payloadProblem(error: PayloadError): string {
  return error.code === 'invalid_json' ? 'payload is not valid JSON' : 'payload is JSON but not an object';
}

/**
 * The `input` of a tool_use start event when it holds the arguments: `{}` is the placeholder of a streamed
 * call (fact 22), anything else arrived whole (aggregators and replays of stored messages send it that way).
 * Re-serialized from the parsed payload: key order and strings are kept, number spelling may change (1.0 -> 1).
 */
function wholeInput(block: JsonObject): string | undefined {
  const input = objectField(block, 'input');
  return input !== undefined && Object.keys(input).length > 0 ? JSON.stringify(input) : undefined;
}

function isKnownEvent(type: string): type is AnthropicEventType {
  return (ANTHROPIC_EVENT_TYPES as readonly string[]).includes(type);
}
