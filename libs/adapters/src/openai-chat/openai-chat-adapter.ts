import { assertNever, type AttemptEndRecord, type JsonValue, type MachineInput, type UpstreamResponseRecord, type Usage } from '@llm-stream/contract';
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
import type { OpenAiChatChoice, OpenAiChatChunk, OpenAiChatContentPart, OpenAiChatDelta, OpenAiToolCallFragment } from './openai-chat-chunk.js';
import { readOpenAiChatChunk } from './read-openai-chat-chunk.js';

/** Block kinds that arrive one after another: at most one of them is open at a time. */
type SequentialKind = 'text' | 'refusal' | 'reasoning';

interface ToolSlot {
  readonly key: string;
  /** A tool type the contract has no block for (`custom`): this call and all its fragments are skipped. */
  readonly skipped: boolean;
  readonly callId?: string;
}

/**
 * OpenAI Chat Completions streaming (and the compatible servers: Azure, DeepSeek, OpenRouter, vLLM, Ollama):
 * `data:` chunks with `choices[].delta`, then `data: [DONE]`.
 * https://platform.openai.com/docs/api-reference/chat-streaming/streaming
 *
 * Blocks. `delta.content` is text, `delta.refusal` a refusal, `delta.reasoning_content` / `delta.reasoning`
 * reasoning (visibility internal); `delta.tool_calls[]` are tool calls routed by their provider index, which
 * need not start at 0 (the position in the array when a server leaves it out); a fragment whose `id` differs
 * from the id of the call at its index starts another call there (servers that send every parallel call at
 * index 0), and fragments without an id continue the latest call at their index. The deprecated
 * `delta.function_call` is a tool call of its own
 * (call id `function_call`, see LEGACY_FUNCTION_CALL_ID). `null` and `""` open nothing. `delta.content` may be an
 * array of typed parts: `text` parts are text, Mistral's `thinking` parts reasoning, in the order sent; other
 * part types are skipped and counted as `unknown_part` `content.<type>`. A choice with `message` in place of
 * `delta` (a whole `chat.completion` relayed as one record) is read as one delta holding the whole answer.
 * The protocol has no block-stop
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
 *   later `choices: []` chunk (OpenAI, llama.cpp) or the finish chunk itself (DeepSeek, Copilot, Mistral, xAI),
 *   else Groq's legacy `x_groq.usage` (docs/openai-compatible.md);
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
  /** A call's `extra_content` (the first one it carried), sent back by the client: on its block.stop. */
  private readonly toolExtraContent = new Map<string, JsonValue>();
  /** The call each provider index stands for now (a later call with another id may take the index over). */
  private readonly tools = new Map<number, ToolSlot>();
  private toolCalls = 0;
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
    const data = frame.data;
    if (this.ended || frame.partial || data === undefined || data === '') return [];
    if (data.length < 16 && data.trim() === '[DONE]') return this.done();
    const parsed = parseJsonObject(data);
    // The JSON parser's own message quotes the payload; a stream error message must not carry content.
    if (!parsed.ok) {
      const what = parsed.error.code === 'invalid_json' ? 'is not valid JSON' : 'is JSON but not an object';
      return this.settle([protocolFailure(`openai-chat: a data payload ${what}`)]);
    }
    const read = readOpenAiChatChunk(parsed.value);
    if (!read.ok) return this.settle([protocolFailure(`openai-chat: ${read.error}`)]);
    if (read.value.kind === 'error') return this.settle([providerFailure(mapOpenAiChatStreamError(read.value.error))]);
    const out: MachineInput[] = [];
    this.chunk(read.value, out);
    return out;
  }

  end(_record: AttemptEndRecord): readonly MachineInput[] {
    return [];
  }

  // The helpers below append to `out` rather than return arrays: this runs once per chunk, the hot path.

  private chunk(chunk: OpenAiChatChunk, out: MachineInput[]): void {
    this.responseId ??= chunk.id;
    this.model ??= chunk.model;
    if (chunk.usage) this.usage = convertOpenAiChatUsage(chunk.usage) ?? this.usage;
    for (const choice of chunk.choices) {
      if (choice.index !== 0) {
        out.push(unknownPart(`choice[${String(choice.index)}]`));
        continue;
      }
      this.choice(choice, out);
      if (this.ended) return;
    }
  }

  private choice(choice: OpenAiChatChoice, out: MachineInput[]): void {
    const { delta } = choice;
    for (const field of delta.unknownFields) out.push(unknownPart(`delta.${field}`));
    if (this.finishReason !== undefined) {
      // A repeated finish_reason changes nothing (the first one stopped the blocks); new content is a violation.
      if (carriesContent(delta)) out.push(this.settleWith(protocolFailure('openai-chat: choice 0 continued after its finish_reason')));
      return;
    }
    // Reasoning precedes the answer it leads to; a delta carrying both is read in that order.
    if (delta.reasoning !== undefined) this.sequential('reasoning', delta.reasoning, out);
    if (delta.content !== undefined) this.sequential('text', delta.content, out);
    if (delta.contentParts !== undefined) this.contentParts(delta.contentParts, out);
    if (delta.refusal !== undefined) this.sequential('refusal', delta.refusal, out);
    for (const call of delta.toolCalls) {
      this.toolFragment(call, out);
      if (this.ended) return;
    }
    if (choice.finishReason !== undefined) this.finish(choice.finishReason, out);
  }

  private sequential(kind: SequentialKind, text: string, out: MachineInput[]): void {
    const current = this.current;
    if (current?.kind === kind) {
      out.push({ type: 'block.append', key: current.key, delta: { kind: 'text', text } });
      return;
    }
    this.closeCurrent(out);
    const key = `${kind}:${String(this.sequentialBlocks++)}`;
    this.current = { kind, key };
    this.openKeys.add(key);
    if (kind !== 'reasoning') this.seen[kind] = true;
    out.push({ type: 'block.open', key, kind }, { type: 'block.append', key, delta: { kind: 'text', text } });
  }

  /** An array `content`, part by part in the order sent: each text or reasoning part continues or opens its block. */
  private contentParts(parts: readonly OpenAiChatContentPart[], out: MachineInput[]): void {
    for (const part of parts) {
      switch (part.kind) {
        case 'text':
        case 'reasoning':
          this.sequential(part.kind, part.text, out);
          break;
        case 'unknown':
          out.push(unknownPart(`content.${part.type}`));
          break;
        default:
          assertNever(part);
      }
    }
  }

  private toolFragment(call: OpenAiToolCallFragment, out: MachineInput[]): void {
    const slot = this.tools.get(call.index);
    // Servers that repeat the id on every fragment repeat the same one. Another id at a used index is another
    // call: Ollama, SGLang and Responses-to-Chat bridges send every parallel call at index 0, each with its id.
    if (slot === undefined || (call.id !== undefined && slot.callId !== undefined && call.id !== slot.callId)) {
      this.openTool(call, out);
      return;
    }
    if (slot.skipped) return;
    this.keepExtraContent(slot.key, call);
    if (call.arguments) out.push({ type: 'block.append', key: slot.key, delta: { kind: 'json_text', text: call.arguments } });
  }

  private keepExtraContent(key: string, call: OpenAiToolCallFragment): void {
    // Parsed from the payload's JSON text, so a JSON value throughout.
    if (call.extraContent !== undefined && !this.toolExtraContent.has(key)) this.toolExtraContent.set(key, call.extraContent as JsonValue);
  }

  /** A new call at `call.index`: fragments without an id go to it from now on. */
  private openTool(call: OpenAiToolCallFragment, out: MachineInput[]): void {
    const key = `tool:${String(this.toolCalls++)}`;
    const skipped = call.type !== undefined && call.type !== 'function';
    this.tools.set(call.index, { key, skipped, ...optional('callId', call.id) });
    if (skipped) {
      out.push(unknownPart(`tool_call.${call.type}`));
      return;
    }
    this.keepExtraContent(key, call);
    this.openKeys.add(key);
    this.seen.tool = true;
    this.closeCurrent(out);
    out.push({ type: 'block.open', key, kind: 'tool_call', ...optional('name', call.name), ...optional('call_id', call.id) });
    out.push(...fragment(key, 'json_text', call.arguments, true));
  }

  private finish(reason: string, out: MachineInput[]): void {
    if (reason === 'error') {
      // OpenRouter without an error object: the choice failed, whatever it produced is a draft.
      out.push(
        this.settleWith(
          providerFailure({
            category: 'upstream_error',
            retryable: false,
            provider_code: null,
            message: 'the provider ended the answer with finish_reason "error"',
          }),
        ),
      );
      return;
    }
    this.finishReason = reason;
    this.current = undefined;
    for (const key of this.openKeys) {
      const extraContent = this.toolExtraContent.get(key);
      out.push({ type: 'block.close', key, ...(extraContent !== undefined && { provider_metadata: { 'openai-chat': { extra_content: extraContent } } }) });
    }
    this.openKeys.clear();
  }

  private done(): readonly MachineInput[] {
    const reason = this.finishReason;
    if (reason === undefined) return this.settle([protocolFailure('openai-chat: [DONE] before any finish_reason for choice 0')]);
    return this.settle([
      {
        type: 'finish',
        stop_reason: mapOpenAiChatFinishReason(reason, this.seen),
        provider_stop_reason: reason,
        ...optional('usage', this.usage),
        ...optional('response_id', this.responseId),
        ...optional('provider_model', this.model),
      },
    ]);
  }

  private closeCurrent(out: MachineInput[]): void {
    const current = this.current;
    if (!current) return;
    this.current = undefined;
    this.openKeys.delete(current.key);
    out.push({ type: 'block.close', key: current.key });
  }

  private settle(inputs: readonly MachineInput[]): readonly MachineInput[] {
    this.ended = true;
    return inputs;
  }

  private settleWith(input: MachineInput): MachineInput {
    this.ended = true;
    return input;
  }
}

/** Whether a delta adds anything to the answer (a tool fragment with only its index adds nothing). */
function carriesContent(delta: OpenAiChatDelta): boolean {
  if (delta.content !== undefined || delta.refusal !== undefined || delta.reasoning !== undefined) return true;
  if (delta.contentParts?.some((part) => part.kind !== 'unknown')) return true;
  return delta.toolCalls.some((call) => call.arguments !== undefined || call.id !== undefined || call.name !== undefined);
}
