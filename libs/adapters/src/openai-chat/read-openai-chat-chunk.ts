import { err, ok, type Result } from '@llm-stream/contract';
import { isObject, type JsonObject } from '../shared/json-payload.js';
import {
  KNOWN_DELTA_FIELDS,
  type OpenAiChatChoice,
  type OpenAiChatDelta,
  type OpenAiChatPayload,
  type OpenAiToolCallFragment,
} from './openai-chat-chunk.js';

/** What was wrong with a payload, as a safe message (it never quotes provider text). */
type Read<T> = Result<T, string>;

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

  const id = optionalString(payload, 'id', 'chunk id');
  if (!id.ok) return id;
  const model = optionalString(payload, 'model', 'chunk model');
  if (!model.ok) return model;
  const usage = payload['usage'];
  if (usage !== undefined && usage !== null && !isObject(usage)) return err('usage is not an object');
  const rawChoices = payload['choices'];
  if (rawChoices !== undefined && rawChoices !== null && !Array.isArray(rawChoices)) return err('choices is not an array');

  const choices: OpenAiChatChoice[] = [];
  for (const [position, raw] of (Array.isArray(rawChoices) ? rawChoices : []).entries()) {
    const choice = readChoice(raw, position);
    if (!choice.ok) return choice;
    choices.push(choice.value);
  }
  return ok({
    kind: 'chunk',
    choices,
    ...(id.value !== undefined && { id: id.value }),
    ...(model.value !== undefined && { model: model.value }),
    ...(isObject(usage) && { usage }),
  });
}

function readChoice(raw: unknown, position: number): Read<OpenAiChatChoice> {
  if (!isObject(raw)) return err(`choices[${position}] is not an object`);
  const index = optionalIndex(raw, `choices[${position}].index`);
  if (!index.ok) return index;
  const finishReason = optionalString(raw, 'finish_reason', `choices[${position}].finish_reason`);
  if (!finishReason.ok) return finishReason;
  const rawDelta = raw['delta'];
  if (rawDelta !== undefined && rawDelta !== null && !isObject(rawDelta)) return err(`choices[${position}].delta is not an object`);
  const delta = readDelta(isObject(rawDelta) ? rawDelta : {}, `choices[${position}].delta`);
  if (!delta.ok) return delta;
  return ok({
    index: index.value ?? position,
    delta: delta.value,
    ...(finishReason.value !== undefined && { finishReason: finishReason.value }),
  });
}

function readDelta(delta: JsonObject, at: string): Read<OpenAiChatDelta> {
  const content = optionalString(delta, 'content', `${at}.content`);
  if (!content.ok) return content;
  const refusal = optionalString(delta, 'refusal', `${at}.refusal`);
  if (!refusal.ok) return refusal;
  const reasoningContent = optionalString(delta, 'reasoning_content', `${at}.reasoning_content`);
  if (!reasoningContent.ok) return reasoningContent;
  const reasoning = optionalString(delta, 'reasoning', `${at}.reasoning`);
  if (!reasoning.ok) return reasoning;
  const rawCalls = delta['tool_calls'];
  if (rawCalls !== undefined && rawCalls !== null && !Array.isArray(rawCalls)) return err(`${at}.tool_calls is not an array`);
  const toolCalls: OpenAiToolCallFragment[] = [];
  for (const [position, raw] of (Array.isArray(rawCalls) ? rawCalls : []).entries()) {
    const call = readToolCall(raw, position, `${at}.tool_calls[${position}]`);
    if (!call.ok) return call;
    toolCalls.push(call.value);
  }
  const unknownFields = Object.keys(delta).filter((key) => !KNOWN_DELTA_FIELDS.has(key) && delta[key] !== null);
  // A server that sends both reasoning fields sends the same text twice; one of them is the reasoning.
  const reasoningText = reasoningContent.value ?? reasoning.value;
  return ok({
    toolCalls,
    unknownFields,
    ...(content.value !== undefined && { content: content.value }),
    ...(refusal.value !== undefined && { refusal: refusal.value }),
    ...(reasoningText !== undefined && { reasoning: reasoningText }),
  });
}

function readToolCall(raw: unknown, position: number, at: string): Read<OpenAiToolCallFragment> {
  if (!isObject(raw)) return err(`${at} is not an object`);
  // Some compatible servers leave out `index` when each chunk carries whole calls; the position stands in.
  const index = optionalIndex(raw, `${at}.index`);
  if (!index.ok) return index;
  const id = optionalString(raw, 'id', `${at}.id`);
  if (!id.ok) return id;
  const type = optionalString(raw, 'type', `${at}.type`);
  if (!type.ok) return type;
  const fn = raw['function'];
  if (fn !== undefined && fn !== null && !isObject(fn)) return err(`${at}.function is not an object`);
  const name = isObject(fn) ? optionalString(fn, 'name', `${at}.function.name`) : ok(undefined);
  if (!name.ok) return name;
  const args = isObject(fn) ? optionalString(fn, 'arguments', `${at}.function.arguments`) : ok(undefined);
  if (!args.ok) return args;
  return ok({
    index: index.value ?? position,
    ...(id.value !== undefined && { id: id.value }),
    ...(type.value !== undefined && { type: type.value }),
    ...(name.value !== undefined && { name: name.value }),
    ...(args.value !== undefined && { arguments: args.value }),
  });
}

/** A string field; absent, `null` and `""` are all "nothing". Any other type is a shape error. */
function optionalString(object: JsonObject, key: string, what: string): Read<string | undefined> {
  const value = object[key];
  if (value === undefined || value === null || value === '') return ok(undefined);
  return typeof value === 'string' ? ok(value) : err(`${what} is not a string`);
}

/** A choice or tool-call index: a non-negative integer, or absent / `null`. */
function optionalIndex(object: JsonObject, what: string): Read<number | undefined> {
  const value = object['index'];
  if (value === undefined || value === null) return ok(undefined);
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? ok(value) : err(`${what} is not a non-negative integer`);
}
