import { err, ok, type Result } from '@llm-stream/contract';
import { isObject, type JsonObject } from '../shared/json-payload.js';
import {
  KNOWN_DELTA_FIELDS,
  LEGACY_FUNCTION_CALL_ID,
  LEGACY_FUNCTION_CALL_INDEX,
  type OpenAiChatChoice,
  type OpenAiChatContentPart,
  type OpenAiChatDelta,
  type OpenAiChatPayload,
  type OpenAiToolCallFragment,
} from './openai-chat-chunk.js';

/** What was wrong with a payload, as a safe message (it never quotes provider text). */
type Read<T> = Result<T, string>;

/**
 * A field of the wrong type, found deep in the reading: thrown inside this module only and turned into the
 * `Read` error at its entry point, so the success path (every chunk but a broken one) builds no error
 * strings and no Result per field. The path is described lazily, when the error is reported.
 */
class ShapeError extends Error {
  constructor(
    readonly path: () => string,
    readonly problem: string,
  ) {
    super(problem);
  }
}

/**
 * Checks one parsed `data:` object against the chunk shape and reads it. Every known field is checked
 * before anything is emitted, so a chunk with one field of the wrong type is refused whole instead of
 * half-applied. `null` and `""` mean "nothing" for every optional field: OpenAI's first chunk has
 * `content: ""` or `content: null, refusal: ""`, DeepSeek's chunks carry `reasoning_content: null`, and some
 * compatible servers send `finish_reason: ""` on every chunk before the last.
 * https://platform.openai.com/docs/api-reference/chat-streaming/streaming
 */
export function readOpenAiChatChunk(payload: JsonObject): Read<OpenAiChatPayload> {
  const error = payload['error'];
  if (error !== undefined && error !== null) return ok({ kind: 'error', error });
  if (payload['object'] === 'error') return ok({ kind: 'error', error: payload });
  try {
    return ok(readChunk(payload));
  } catch (thrown) {
    if (thrown instanceof ShapeError) return err(`${thrown.path()} ${thrown.problem}`);
    throw thrown;
  }
}

function readChunk(payload: JsonObject): OpenAiChatPayload {
  const id = optionalString(payload, 'id', () => 'chunk id');
  const model = optionalString(payload, 'model', () => 'chunk model');
  // Groq reported usage only under `x_groq.usage` on the finish chunk before it supported include_usage
  // (https://github.com/vercel/ai/issues/1651); the standard field wins where both are sent.
  const xGroq = payload['x_groq'];
  const usage = payload['usage'] ?? (isObject(xGroq) ? xGroq['usage'] : undefined);
  if (usage !== undefined && usage !== null && !isObject(usage)) throw new ShapeError(() => 'usage', 'is not an object');
  const rawChoices = payload['choices'];
  if (rawChoices !== undefined && rawChoices !== null && !Array.isArray(rawChoices)) throw new ShapeError(() => 'choices', 'is not an array');
  const choices: OpenAiChatChoice[] = [];
  if (Array.isArray(rawChoices)) for (let position = 0; position < rawChoices.length; position++) choices.push(readChoice(rawChoices[position], position));
  const chunk: { kind: 'chunk'; choices: OpenAiChatChoice[]; id?: string; model?: string; usage?: JsonObject } = { kind: 'chunk', choices };
  if (id !== undefined) chunk.id = id;
  if (model !== undefined) chunk.model = model;
  if (isObject(usage)) chunk.usage = usage;
  return chunk;
}

function readChoice(raw: unknown, position: number): OpenAiChatChoice {
  const at = (): string => `choices[${String(position)}]`;
  if (!isObject(raw)) throw new ShapeError(at, 'is not an object');
  const index = optionalIndex(raw, () => `${at()}.index`);
  const finishReason = optionalString(raw, 'finish_reason', () => `${at()}.finish_reason`);
  const rawDelta = raw['delta'];
  if (rawDelta !== undefined && rawDelta !== null && !isObject(rawDelta)) throw new ShapeError(() => `${at()}.delta`, 'is not an object');
  // A whole answer in one record: a proxy relaying a non-streamed `chat.completion` puts `message` where the
  // chunk has `delta`. Its fields are those of a delta holding everything at once.
  const rawMessage = raw['message'];
  const wholeMessage = (rawDelta === undefined || rawDelta === null || isEmpty(rawDelta)) && isObject(rawMessage);
  const delta = wholeMessage ? readDelta(rawMessage, () => `${at()}.message`) : readDelta(isObject(rawDelta) ? rawDelta : {}, () => `${at()}.delta`);
  const choice: { index: number; delta: OpenAiChatDelta; finishReason?: string } = { index: index ?? position, delta };
  if (finishReason !== undefined) choice.finishReason = finishReason;
  return choice;
}

const NO_TOOL_CALLS: readonly OpenAiToolCallFragment[] = Object.freeze([]);
const NO_FIELDS: readonly string[] = Object.freeze([]);

function readDelta(delta: JsonObject, at: () => string): OpenAiChatDelta {
  const rawContent = delta['content'];
  const contentParts = Array.isArray(rawContent) ? readContentParts(rawContent, () => `${at()}.content`) : undefined;
  const content = contentParts === undefined ? optionalString(delta, 'content', () => `${at()}.content`) : undefined;
  const refusal = optionalString(delta, 'refusal', () => `${at()}.refusal`);
  const reasoningContent = optionalString(delta, 'reasoning_content', () => `${at()}.reasoning_content`);
  const reasoning = optionalString(delta, 'reasoning', () => `${at()}.reasoning`);
  const rawCalls = delta['tool_calls'];
  if (rawCalls !== undefined && rawCalls !== null && !Array.isArray(rawCalls)) throw new ShapeError(() => `${at()}.tool_calls`, 'is not an array');
  let toolCalls = NO_TOOL_CALLS;
  if (Array.isArray(rawCalls) && rawCalls.length > 0) {
    const calls: OpenAiToolCallFragment[] = [];
    for (let position = 0; position < rawCalls.length; position++) {
      calls.push(readToolCall(rawCalls[position], position, () => `${at()}.tool_calls[${String(position)}]`));
    }
    toolCalls = calls;
  }
  const legacy = delta['function_call'];
  if (legacy !== undefined && legacy !== null) {
    if (!isObject(legacy)) throw new ShapeError(() => `${at()}.function_call`, 'is not an object');
    const call = readFunction(legacy, LEGACY_FUNCTION_CALL_INDEX, () => `${at()}.function_call`);
    toolCalls = [...toolCalls, { ...call, id: LEGACY_FUNCTION_CALL_ID }];
  }
  let unknownFields = NO_FIELDS;
  for (const key in delta) {
    if (KNOWN_DELTA_FIELDS.has(key) || delta[key] === null) continue;
    if (unknownFields === NO_FIELDS) unknownFields = [];
    (unknownFields as string[]).push(key);
  }
  // A server that sends both reasoning fields sends the same text twice; one of them is the reasoning.
  const reasoningText = reasoningContent ?? reasoning;
  const read: {
    toolCalls: readonly OpenAiToolCallFragment[];
    unknownFields: readonly string[];
    content?: string;
    contentParts?: readonly OpenAiChatContentPart[];
    refusal?: string;
    reasoning?: string;
  } = { toolCalls, unknownFields };
  if (content !== undefined) read.content = content;
  if (contentParts !== undefined && contentParts.length > 0) read.contentParts = contentParts;
  if (refusal !== undefined) read.refusal = refusal;
  if (reasoningText !== undefined) read.reasoning = reasoningText;
  return read;
}

/**
 * `content` as an array of typed parts. Text parts (`text`) and Mistral's reasoning parts (`thinking`, an
 * array of text parts or a string) are read; any other type is kept as unknown, to be skipped and counted,
 * never a failure. A known part whose text has the wrong type is a shape error like any known field.
 */
function readContentParts(parts: readonly unknown[], at: () => string): OpenAiChatContentPart[] {
  const read: OpenAiChatContentPart[] = [];
  parts.forEach((part, position) => {
    const path = (): string => `${at()}[${String(position)}]`;
    if (!isObject(part)) throw new ShapeError(path, 'is not an object');
    const type = typeof part['type'] === 'string' ? part['type'] : '';
    switch (type) {
      case 'text': {
        const text = optionalString(part, 'text', () => `${path()}.text`);
        if (text !== undefined) read.push({ kind: 'text', text });
        return;
      }
      case 'thinking': {
        const text = thinkingText(part['thinking'], () => `${path()}.thinking`);
        if (text !== '') read.push({ kind: 'reasoning', text });
        return;
      }
      default:
        read.push({ kind: 'unknown', type });
    }
  });
  return read;
}

/** Mistral's `thinking`: text parts (`[{"type": "text", "text"}]`) joined as sent, or a plain string. */
function thinkingText(thinking: unknown, at: () => string): string {
  if (thinking === undefined || thinking === null) return '';
  if (typeof thinking === 'string') return thinking;
  if (!Array.isArray(thinking)) throw new ShapeError(at, 'is neither a string nor an array');
  let text = '';
  thinking.forEach((part, position) => {
    if (!isObject(part)) throw new ShapeError(() => `${at()}[${String(position)}]`, 'is not an object');
    text += optionalString(part, 'text', () => `${at()}[${String(position)}].text`) ?? '';
  });
  return text;
}

function isEmpty(object: unknown): boolean {
  return isObject(object) && Object.keys(object).length === 0;
}

function readToolCall(raw: unknown, position: number, at: () => string): OpenAiToolCallFragment {
  if (!isObject(raw)) throw new ShapeError(at, 'is not an object');
  // Some compatible servers leave out `index` when each chunk carries whole calls; the position stands in.
  const index = optionalIndex(raw, () => `${at()}.index`);
  const id = optionalString(raw, 'id', () => `${at()}.id`);
  const type = optionalString(raw, 'type', () => `${at()}.type`);
  const fn = raw['function'];
  if (fn !== undefined && fn !== null && !isObject(fn)) throw new ShapeError(() => `${at()}.function`, 'is not an object');
  const call = readFunction(isObject(fn) ? fn : {}, index ?? position, () => `${at()}.function`);
  const extra = raw['extra_content'];
  if (extra !== undefined && extra !== null && !isObject(extra)) throw new ShapeError(() => `${at()}.extra_content`, 'is not an object');
  return { ...call, ...(id !== undefined && { id }), ...(type !== undefined && { type }), ...(isObject(extra) && { extraContent: extra }) };
}

/** `{name, arguments}` of a tool call's `function`, or of the deprecated `delta.function_call`. */
function readFunction(fn: JsonObject, index: number, at: () => string): OpenAiToolCallFragment {
  const name = optionalString(fn, 'name', () => `${at()}.name`);
  const args = optionalString(fn, 'arguments', () => `${at()}.arguments`);
  return { index, ...(name !== undefined && { name }), ...(args !== undefined && { arguments: args }) };
}

/** A string field; absent, `null` and `""` are all "nothing". Any other type is a shape error. */
function optionalString(object: JsonObject, key: string, path: () => string): string | undefined {
  const value = object[key];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new ShapeError(path, 'is not a string');
  return value;
}

/** A choice or tool-call index: a non-negative integer, or absent / `null`. */
function optionalIndex(object: JsonObject, path: () => string): number | undefined {
  const value = object['index'];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  throw new ShapeError(path, 'is not a non-negative integer');
}
