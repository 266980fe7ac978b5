import type { AttemptEndRecord, CloseBlockInput, MachineInput, UpstreamResponseRecord, Usage } from '@llm-stream/contract';
import type { ProviderAdapter } from '../adapter.js';
import { fragment } from '../shared/block-inputs.js';
import { httpErrorFailure } from '../shared/http-error-failure.js';
import { parseJsonObject } from '../shared/json-payload.js';
import { optional } from '../shared/optional.js';
import { protocolFailure, providerFailure } from '../shared/protocol-failure.js';
import { unknownPart } from '../shared/unknown-warning.js';
import type { SseFrame } from '../sse/sse-frame.js';
import { convertOpenAiChatUsage } from './convert-openai-chat-usage.js';
import { mapOpenAiChatStreamError, readOpenAiErrorBody } from './map-openai-chat-error.js';
import { mapOpenAiChatFinishReason } from './map-openai-chat-finish-reason.js';
import type { OpenAiChatChoice, OpenAiChatChunk, OpenAiChatDelta, OpenAiToolCallFragment } from './openai-chat-chunk.js';
import { readOpenAiChatChunk } from './read-openai-chat-chunk.js';

/** Block kinds that arrive one after another: at most one of them is open at a time. */
type SequentialKind = 'text' | 'refusal' | 'reasoning';

interface ToolSlot {
  readonly key: string;
  /** A tool type the contract has no block for (`custom`): this index and all its fragments are skipped. */
  readonly skipped: boolean;
  readonly callId?: string;
}

/**
 * OpenAI Chat Completions streaming (and the compatible servers: Azure, DeepSeek, OpenRouter, vLLM, Ollama):
 * `data:` chunks with `choices[].delta`, then `data: [DONE]`.
 * https://platform.openai.com/docs/api-reference/chat-streaming/streaming
 *
 * Blocks. `delta.content` is text, `delta.refusal` a refusal, `delta.reasoning_content` / `delta.reasoning`
 * reasoning (visibility internal); `delta.tool_calls[]` are tool calls keyed `tool:<index>` by their
 * provider index, which need not start at 0. `null` and `""` open nothing. The protocol has no block-stop
 * event, so this adapter decides where `block.stop` goes:
 * - text, refusal and reasoning arrive one after another: such a block is stopped when any other block
 *   starts (another of these kinds, or a new tool index);
 * - a tool call is stopped at the finish_reason chunk, never earlier: compatible servers interleave the
 *   fragments of parallel calls by index, so a later index starting does not prove an earlier call complete
 *   (two tool blocks may be open at once; the machine allows it). Its JSON is validated when it stops: a
 *   `length` finish inside the arguments fails the stream (`protocol_error`);
 * - the finish_reason chunk (after its own delta) stops every block still open, in the order they opened.
 *
 * Only choice 0 is normalized: other choices (`n > 1`) are skipped and counted as `unknown_part`
 * `choice[<n>]`. Unknown delta fields (`audio`, `reasoning_details`...) are skipped and counted as
 * `delta.<field>`; `obfuscation` and other chunk-level fields are ignored.
 *
 * Terminal signals (the first one wins; nothing is emitted after it):
 * - completed: `[DONE]` after choice 0 had a finish_reason. Usage is the last `usage` object seen, from the
 *   later `choices: []` chunk (OpenAI) or the finish chunk itself (DeepSeek, Copilot);
 * - failed: a `{"error": ...}` payload (also OpenRouter's chunk with `error` and `finish_reason: "error"`, and
 *   a flat `{"object": "error"}`), `finish_reason: "error"`, an HTTP error status; `protocol_error` for
 *   a payload that is not JSON or not a chunk, a delta for choice 0 after its finish_reason, and `[DONE]`
 *   without a finish_reason (the server ended the stream on purpose without saying how the answer ended:
 *   not a transport cut, so not `interrupted`);
 * - interrupted: added by the session when the bytes end first, including after a finish_reason but before
 *   `[DONE]` (the blocks are then stopped, the stream is not completed).
 */
export class OpenAiChatAdapter implements ProviderAdapter {
  readonly provider = 'openai-chat' as const;
  private ended = false;
  /** Choice 0's finish_reason; once set, every block is stopped and only usage and `[DONE]` may follow. */
  private finishReason: string | undefined;
  private current: { readonly kind: SequentialKind; readonly key: string } | undefined;
  private sequentialBlocks = 0;
  private readonly tools = new Map<number, ToolSlot>();
  /** Keys of the open blocks, in the order they opened (a Set iterates in insertion order). */
  private readonly openKeys = new Set<string>();
  private readonly seen = { text: false, refusal: false, tool: false };
  private usage: Usage | undefined;
  private responseId: string | undefined;
  private model: string | undefined;

  response(record: UpstreamResponseRecord): readonly MachineInput[] {
    if (record.status < 400) return [];
    return this.settle([httpErrorFailure(record, readOpenAiErrorBody)]);
  }

  frame(frame: SseFrame): readonly MachineInput[] {
    // An empty data buffer dispatches nothing (HTML Standard); comments (`: keep-alive`) have no data.
    if (this.ended || frame.partial || frame.data === undefined || frame.data === '') return [];
    if (frame.data.trim() === '[DONE]') return this.done();
    const parsed = parseJsonObject(frame.data);
    // The JSON parser's own message quotes the payload; a stream error message must not carry content.
    if (!parsed.ok) {
      const what = parsed.error.code === 'invalid_json' ? 'is not valid JSON' : 'is JSON but not an object';
      return this.settle([protocolFailure(`openai-chat: a data payload ${what}`)]);
    }
    const read = readOpenAiChatChunk(parsed.value);
    if (!read.ok) return this.settle([protocolFailure(`openai-chat: ${read.error}`)]);
    if (read.value.kind === 'error') return this.settle([providerFailure(mapOpenAiChatStreamError(read.value.error))]);
    return this.chunk(read.value);
  }

  end(_record: AttemptEndRecord): readonly MachineInput[] {
    return [];
  }

  private chunk(chunk: OpenAiChatChunk): readonly MachineInput[] {
    this.responseId ??= chunk.id;
    this.model ??= chunk.model;
    if (chunk.usage) this.usage = convertOpenAiChatUsage(chunk.usage) ?? this.usage;
    const out: MachineInput[] = [];
    for (const choice of chunk.choices) {
      if (choice.index !== 0) {
        out.push(unknownPart(`choice[${choice.index}]`));
        continue;
      }
      out.push(...this.choice(choice));
      if (this.ended) break;
    }
    return out;
  }

  private choice(choice: OpenAiChatChoice): readonly MachineInput[] {
    const { delta } = choice;
    const out: MachineInput[] = delta.unknownFields.map((field) => unknownPart(`delta.${field}`));
    if (this.finishReason !== undefined) {
      // A repeated finish_reason changes nothing (the first one stopped the blocks); new content is a violation.
      if (carriesContent(delta)) return this.settle([...out, protocolFailure('openai-chat: choice 0 continued after its finish_reason')]);
      return out;
    }
    // Reasoning precedes the answer it leads to; a delta carrying both is read in that order.
    out.push(...this.sequential('reasoning', delta.reasoning), ...this.sequential('text', delta.content), ...this.sequential('refusal', delta.refusal));
    for (const call of delta.toolCalls) {
      out.push(...this.toolFragment(call));
      if (this.ended) return out;
    }
    if (choice.finishReason !== undefined) out.push(...this.finish(choice.finishReason));
    return out;
  }

  private sequential(kind: SequentialKind, text: string | undefined): readonly MachineInput[] {
    if (text === undefined) return [];
    if (this.current?.kind === kind) return fragment(this.current.key, 'text', text, true);
    const closed = this.closeCurrent();
    const key = `${kind}:${String(this.sequentialBlocks++)}`;
    this.current = { kind, key };
    this.openKeys.add(key);
    if (kind !== 'reasoning') this.seen[kind] = true;
    return [...closed, { type: 'block.open', key, kind }, ...fragment(key, 'text', text, true)];
  }

  private toolFragment(call: OpenAiToolCallFragment): readonly MachineInput[] {
    const slot = this.tools.get(call.index);
    if (slot?.skipped) return [];
    if (slot === undefined) {
      const key = `tool:${String(call.index)}`;
      if (call.type !== undefined && call.type !== 'function') {
        this.tools.set(call.index, { key, skipped: true });
        return [unknownPart(`tool_call.${call.type}`)];
      }
      this.tools.set(call.index, { key, skipped: false, ...optional('callId', call.id) });
      this.openKeys.add(key);
      this.seen.tool = true;
      return [
        ...this.closeCurrent(),
        { type: 'block.open', key, kind: 'tool_call', ...optional('name', call.name), ...optional('call_id', call.id) },
        ...fragment(key, 'json_text', call.arguments, true),
      ];
    }
    // Servers that repeat the id on every fragment repeat the same one; another id is another call.
    if (call.id !== undefined && slot.callId !== undefined && call.id !== slot.callId) {
      return this.settle([protocolFailure(`openai-chat: tool call index ${String(call.index)} changed its id`)]);
    }
    return fragment(slot.key, 'json_text', call.arguments, true);
  }

  private finish(reason: string): readonly MachineInput[] {
    if (reason === 'error') {
      // OpenRouter without an error object: the choice failed, whatever it produced is a draft.
      return this.settle([
        providerFailure({
          category: 'upstream_error',
          retryable: false,
          provider_code: null,
          message: 'the provider ended the answer with finish_reason "error"',
        }),
      ]);
    }
    this.finishReason = reason;
    this.current = undefined;
    const closes = [...this.openKeys].map((key): CloseBlockInput => ({ type: 'block.close', key }));
    this.openKeys.clear();
    return closes;
  }

  private done(): readonly MachineInput[] {
    const reason = this.finishReason;
    if (reason === undefined) return this.settle([protocolFailure('openai-chat: [DONE] before any finish_reason for choice 0')]);
    const onlyRefusal = this.seen.refusal && !this.seen.text && !this.seen.tool;
    return this.settle([
      {
        type: 'finish',
        stop_reason: mapOpenAiChatFinishReason(reason, onlyRefusal),
        provider_stop_reason: reason,
        ...optional('usage', this.usage),
        ...optional('response_id', this.responseId),
        ...optional('provider_model', this.model),
      },
    ]);
  }

  private closeCurrent(): readonly CloseBlockInput[] {
    const current = this.current;
    if (!current) return [];
    this.current = undefined;
    this.openKeys.delete(current.key);
    return [{ type: 'block.close', key: current.key }];
  }

  private settle(inputs: readonly MachineInput[]): readonly MachineInput[] {
    this.ended = true;
    return inputs;
  }
}

/** Whether a delta adds anything to the answer (a tool fragment with only its index adds nothing). */
function carriesContent(delta: OpenAiChatDelta): boolean {
  if (delta.content !== undefined || delta.refusal !== undefined || delta.reasoning !== undefined) return true;
  return delta.toolCalls.some((call) => call.arguments !== undefined || call.id !== undefined || call.name !== undefined);
}
