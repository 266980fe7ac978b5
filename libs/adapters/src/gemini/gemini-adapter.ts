import type { AttemptEndRecord, MachineInput, StopReason, UpstreamResponseRecord, Usage, WarnInput } from '@llm-stream/contract';
import type { ProviderAdapter } from '../adapter.js';
import { fragment } from '../shared/block-inputs.js';
import { isObject, objectField, parseJsonObject, stringField, type JsonObject } from '../shared/json-payload.js';
import { optional } from '../shared/optional.js';
import { protocolFailure, providerFailure } from '../shared/protocol-failure.js';
import { unknownPart } from '../shared/unknown-warning.js';
import type { SseFrame } from '../sse/sse-frame.js';
import { convertGeminiUsage } from './convert-gemini-usage.js';
import { GEMINI_PART_METADATA_KEYS } from './gemini-chunk.js';
import { readFunctionCall, type GeminiFunctionCall } from './read-function-call.js';
import { geminiHttpFailure, mapGeminiError } from './map-gemini-error.js';
import { mapGeminiBlockReason, mapGeminiFinishReason } from './map-gemini-finish-reason.js';
import { GeminiBlocks, type OpenBlock } from './gemini-blocks.js';
import { PartialArgsAssembler } from './partial-args-assembler.js';
import { stringifyArguments } from './stringify-arguments.js';
import { UnframedBody, type UnframedVerdict } from './unframed-body.js';

/**
 * Gemini streamGenerateContent (`alt=sse`): each record is a whole GenerateContentResponse; only
 * candidate 0 (`index` 0, or the first candidate when the index is omitted) is normalized, the others are
 * skipped and counted ({@link skippedCandidates}, one `ignored_input` warning).
 * https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
 *
 * Blocks, in order of parts: consecutive text parts form one text block and consecutive `thought: true`
 * parts one reasoning block, across objects; empty text parts open nothing; a functionCall part is one
 * tool_call block (Gemini API: whole, one `json_text` delta of `JSON.stringify(args)`; Vertex
 * `streamFunctionCallArguments`: assembled from `partialArgs`, one delta when the call completes). The call
 * id is the part's `id`, else `call_<block index>` (never derived from the name: parallel calls share it).
 * Unknown part types (`inlineData`, `executableCode`...) are skipped with their signature and warned about;
 * they do not split the block around them.
 *
 * Where block.stop is emitted (Gemini has no block-stop signal): a text or reasoning block stops when the
 * next block starts (the other one of text/thought, or a functionCall) or at the candidate's finishReason
 * (or a prompt blockReason), right before stream.done; a whole function call stops at once; a streamed one
 * when a functionCall part without `willContinue` arrives (the empty `functionCall: {}`, or the last
 * partialArgs). A `thoughtSignature` rides byte-exact as `{"gemini": {"thought_signature": ...}}` on the
 * block.stop of the block its part belongs to; a signature on a part with no content (the final empty text
 * part) goes to the open block, or to stream.done when no block is open.
 *
 * Terminal signals (there is no [DONE]): completed = candidate 0's `finishReason` (STOP, MAX_TOKENS, the
 * content filters, OTHER...) or `promptFeedback.blockReason`; stream.done is emitted at once with the last
 * usage seen, so an object after it (a usage-only one) is not read. Failed = an `{"error": {...}}` object,
 * framed in a data: record or sent unframed after HTTP 200; a tool call the model got wrong
 * (`MALFORMED_FUNCTION_CALL`, `UNEXPECTED_TOOL_CALL`, `TOO_MANY_TOOL_CALLS`) or `MISSING_THOUGHT_SIGNATURE`
 * (map-gemini-finish-reason.ts); a finishReason while
 * a streamed call is unfinished; bytes that are neither the protocol nor an error body. Interrupted (added
 * by the session) = the body ended without any of these.
 */
export class GeminiAdapter implements ProviderAdapter {
  readonly provider = 'gemini' as const;
  private ended = false;
  private readonly blocks = new GeminiBlocks();
  private calledFunctions = false;
  private usage: Usage | undefined;
  private responseId: string | undefined;
  private modelVersion: string | undefined;
  private skipped = 0;
  private strayLinesWarned = false;
  private readonly unframed = new UnframedBody();

  /** Candidates other than candidate 0 that were skipped (a request with candidateCount > 1). */
  get skippedCandidates(): number {
    return this.skipped;
  }

  response(record: UpstreamResponseRecord): readonly MachineInput[] {
    if (record.status < 400) return [];
    return this.settle([geminiHttpFailure(record)]);
  }

  frame(frame: SseFrame): readonly MachineInput[] {
    if (this.ended) return [];
    if (frame.data === undefined) {
      // Comments and blank records say nothing; lines that are not SSE at all may be an unframed error body.
      return frame.unknownLines === 0 ? [] : this.unframedVerdict(this.unframed.push(frame), true);
    }
    // An incomplete final record is never parsed (the body ended before its blank line).
    if (frame.partial) return [];
    if (this.unframed.pending) return this.unframedVerdict(this.unframed.settle(), true);
    const parsed = parseJsonObject(frame.data);
    // The parser's own wording varies between Node versions; the code says all there is to say.
    if (!parsed.ok) return this.settle([protocolFailure(`gemini: a data record is ${RECORD_PROBLEMS[parsed.error.code]}`)]);
    const stray = frame.unknownLines > 0 && !this.strayLinesWarned;
    if (stray) this.strayLinesWarned = true;
    // Reported before the record's own inputs, which may end the stream.
    return [
      ...(stray ? [ignored(`gemini: ${frame.unknownLines} line(s) that are not SSE fields in a data record were ignored`)] : []),
      ...this.object(parsed.value),
    ];
  }

  end(record: AttemptEndRecord): readonly MachineInput[] {
    if (this.ended) return [];
    // A cut connection may have cut an error body short: only a clean end makes leftover text a violation.
    return this.unframedVerdict(this.unframed.settle(), record.reason === 'eof');
  }

  private object(payload: JsonObject): readonly MachineInput[] {
    const error = payload['error'];
    if (error !== undefined) {
      return this.settle([isObject(error) ? providerFailure(mapGeminiError(error)) : protocolFailure('gemini: "error" is not an object')]);
    }
    this.readMetadata(payload);
    const out: MachineInput[] = [];
    const candidates = payload['candidates'];
    if (candidates !== undefined) {
      if (!Array.isArray(candidates)) return this.settle([protocolFailure('gemini: "candidates" is not an array')]);
      for (const [position, candidate] of candidates.entries()) {
        if (!isObject(candidate)) return this.settle([...out, protocolFailure('gemini: a candidate is not an object')]);
        const index = candidate['index'] ?? position;
        if (typeof index !== 'number' || !Number.isSafeInteger(index) || index < 0) {
          return this.settle([...out, protocolFailure('gemini: a candidate index is not a non-negative integer')]);
        }
        if (index !== 0) {
          out.push(...this.skipCandidate(index));
          continue;
        }
        out.push(...this.candidate(candidate));
        if (this.ended) return out;
      }
    }
    const feedback = payload['promptFeedback'];
    const blockReason = isObject(feedback) ? feedback['blockReason'] : undefined;
    if (blockReason === undefined) return out;
    if (typeof blockReason !== 'string') return this.settle([...out, protocolFailure('gemini: promptFeedback.blockReason is not a string')]);
    return [...out, ...this.finish(mapGeminiBlockReason(blockReason), blockReason)];
  }

  /** usageMetadata (cumulative: the last one with counts wins), responseId, modelVersion. */
  private readMetadata(payload: JsonObject): void {
    const usageMetadata = objectField(payload, 'usageMetadata');
    const usage = usageMetadata === undefined ? undefined : convertGeminiUsage(usageMetadata);
    if (usage !== undefined) this.usage = usage;
    this.responseId = stringField(payload, 'responseId') ?? this.responseId;
    this.modelVersion = stringField(payload, 'modelVersion') ?? this.modelVersion;
  }

  private candidate(candidate: JsonObject): readonly MachineInput[] {
    const out: MachineInput[] = [];
    const content = candidate['content'];
    // A candidate stopped by a filter has no content key at all.
    if (content !== undefined) {
      const parts = isObject(content) ? (content['parts'] ?? []) : undefined;
      if (!Array.isArray(parts)) return this.settle([protocolFailure('gemini: candidate content has no parts array')]);
      for (const part of parts) {
        out.push(...this.part(part));
        if (this.ended) return out;
      }
    }
    const reason = candidate['finishReason'];
    if (reason === undefined) return out;
    if (typeof reason !== 'string') return this.settle([...out, protocolFailure('gemini: finishReason is not a string')]);
    const end = mapGeminiFinishReason(reason, this.calledFunctions);
    if (end.kind === 'failed') return this.settle([...out, providerFailure(end.error)]);
    return [...out, ...this.finish(end.stop_reason, reason)];
  }

  private part(part: unknown): readonly MachineInput[] {
    if (!isObject(part)) return this.settle([protocolFailure('gemini: a part is not an object')]);
    const signature = part['thoughtSignature'];
    if (signature !== undefined && typeof signature !== 'string') return this.settle([protocolFailure('gemini: thoughtSignature is not a string')]);
    if ('text' in part) {
      const text = part['text'];
      if (typeof text !== 'string' || 'functionCall' in part) return this.settle([protocolFailure('gemini: a text part is not a string alone')]);
      if (text === '') return this.blocks.placeSignature(signature);
      return this.text(part['thought'] === true ? 'reasoning' : 'text', text, signature);
    }
    if ('functionCall' in part) {
      const call = readFunctionCall(part['functionCall']);
      return call.ok ? this.functionCall(call.value, signature) : this.settle([protocolFailure(`gemini: ${call.error}`)]);
    }
    const type = Object.keys(part).find((key) => !GEMINI_PART_METADATA_KEYS.includes(key));
    // A part of a type the contract has no block for is skipped whole, its signature included.
    return type === undefined ? this.blocks.placeSignature(signature) : [unknownPart(type)];
  }

  private text(kind: 'text' | 'reasoning', text: string, signature: string | undefined): readonly MachineInput[] {
    const open = this.blocks.open;
    if (open?.streamed) return this.settle([protocolFailure('gemini: a text part arrived while function call arguments were streaming')]);
    const out: MachineInput[] = [];
    // A second, different signature means the provider drew a part boundary the client must keep.
    const split = signature !== undefined && open?.signature !== undefined && open.signature !== signature;
    let block = open;
    if (!block || block.kind !== kind || split) {
      out.push(...this.blocks.close());
      block = this.blocks.start(kind);
      out.push({ type: 'block.open', key: block.key, kind });
    }
    if (signature !== undefined) block.signature = signature;
    out.push(...fragment(block.key, 'text', text, true));
    return out;
  }

  private functionCall(call: GeminiFunctionCall, signature: string | undefined): readonly MachineInput[] {
    const open = this.blocks.open;
    if (open?.streamed) {
      if (call.name !== undefined) return this.settle([protocolFailure('gemini: a functionCall started while another one was streaming')]);
      // The signature goes first: completing the call stops its block.
      return [...this.blocks.placeSignature(signature), ...this.applyPartialArgs(open, call)];
    }
    if (call.name === undefined) return this.settle([protocolFailure('gemini: a functionCall part has no name')]);
    const out: MachineInput[] = [...this.blocks.close()];
    const continues = call.willContinue || call.partialArgs !== undefined;
    const block = continues ? this.blocks.start('tool_call', new PartialArgsAssembler()) : this.blocks.start('tool_call');
    block.signature = signature;
    this.calledFunctions = true;
    const callId = call.id ?? `call_${block.index}`;
    out.push({ type: 'block.open', key: block.key, kind: 'tool_call', name: call.name, call_id: callId });
    if (block.streamed) {
      if (call.args !== undefined && Object.keys(call.args).length > 0) {
        return this.settle([...out, protocolFailure('gemini: a streamed functionCall also carries args')]);
      }
      return [...out, ...this.applyPartialArgs(block, call)];
    }
    const text = stringifyArguments(call.args ?? {});
    if (!text.ok) return this.settle([...out, protocolFailure(`gemini: ${text.error}`)]);
    return [...out, ...fragment(block.key, 'json_text', text.value, true), ...this.blocks.close()];
  }

  /** Vertex partialArgs; the call completes (one json_text delta, block.stop) at a part without willContinue. */
  private applyPartialArgs(block: OpenBlock, call: GeminiFunctionCall): readonly MachineInput[] {
    const args = block.streamed;
    if (!args) return [];
    for (const entry of call.partialArgs ?? []) {
      const applied = args.apply(entry);
      if (!applied.ok) return this.settle([protocolFailure(`gemini: functionCall partialArgs: ${applied.error.message}`)]);
    }
    if (call.willContinue) return [];
    const text = args.text();
    if (!text.ok) return this.settle([protocolFailure(`gemini: ${text.error.message}`)]);
    return [...fragment(block.key, 'json_text', text.value, true), ...this.blocks.close()];
  }

  private finish(stopReason: StopReason, providerReason: string): readonly MachineInput[] {
    if (this.blocks.open?.streamed) {
      return this.settle([protocolFailure(`gemini: ${providerReason} arrived while function call arguments were still streaming`)]);
    }
    const out: MachineInput[] = [...this.blocks.close()];
    out.push({
      type: 'finish',
      stop_reason: stopReason,
      provider_stop_reason: providerReason,
      ...optional('usage', this.usage),
      ...optional('response_id', this.responseId),
      ...optional('provider_model', this.modelVersion),
      ...optional('provider_metadata', this.blocks.responseMetadata()),
    });
    return this.settle(out);
  }

  private skipCandidate(index: number): readonly MachineInput[] {
    this.skipped += 1;
    if (this.skipped > 1) return [];
    return [ignored(`gemini: skipped candidate ${index}; only candidate 0 is normalized`)];
  }

  private unframedVerdict(verdict: UnframedVerdict, strict: boolean): readonly MachineInput[] {
    switch (verdict.kind) {
      case 'none':
      case 'pending':
        return [];
      case 'error':
        return this.settle([providerFailure(mapGeminiError(verdict.error))]);
      case 'invalid':
        return strict ? this.settle([protocolFailure(verdict.message)]) : [];
    }
  }

  private settle(inputs: readonly MachineInput[]): readonly MachineInput[] {
    this.ended = true;
    return inputs;
  }
}

const RECORD_PROBLEMS = { invalid_json: 'not valid JSON', not_an_object: 'JSON but not an object' } as const;

function ignored(message: string): WarnInput {
  return { type: 'warn', warning: { code: 'ignored_input', message } };
}
