import { assemble, type AssembledResult, type ContractEvent } from '@llm-stream/contract';
import { normalizeForKit } from '../../../test/conformance-harness.js';
import { OpenAiResponsesAdapter } from '../openai-responses-adapter.js';

/** Small builders for hand-made Responses streams in unit specs (the transcripts hold the realistic ones). */
export type Payload = Record<string, unknown>;

/** One record in the provider's framing: `event: <type>` + compact JSON data. */
export function record(payload: Payload): string {
  return `event: ${String(payload['type'])}\ndata: ${JSON.stringify(payload)}\n\n`;
}

export function body(...payloads: Payload[]): string {
  return payloads.map(record).join('');
}

export interface Run {
  readonly events: ContractEvent[];
  readonly result: AssembledResult;
  readonly warnings: string[];
}

export function run(text: string): Run {
  const { events } = normalizeForKit('openai-responses', text, () => new OpenAiResponsesAdapter());
  const warnings = events.flatMap((event) => (event.type === 'stream.warning' ? [`${event.warning.code}:${event.warning.provider_event_type ?? ''}`] : []));
  return { events, result: assemble(events), warnings };
}

export const created: Payload = { type: 'response.created', response: { id: 'resp_1', status: 'in_progress', model: 'gpt-test' } };

export function completed(usage: Payload | null = { input_tokens: 5, output_tokens: 7 }): Payload {
  return { type: 'response.completed', response: { id: 'resp_1', status: 'completed', model: 'gpt-test-2026', usage } };
}

export function messageAdded(id: string, outputIndex = 0): Payload {
  return { type: 'response.output_item.added', item: { id, type: 'message', status: 'in_progress', content: [], role: 'assistant' }, output_index: outputIndex };
}

export function partAdded(itemId: string, contentIndex = 0, part: Payload = { type: 'output_text', text: '' }): Payload {
  return { type: 'response.content_part.added', item_id: itemId, output_index: 0, content_index: contentIndex, part };
}

export function textDelta(itemId: string, delta: string, contentIndex = 0): Payload {
  return { type: 'response.output_text.delta', item_id: itemId, output_index: 0, content_index: contentIndex, delta };
}

export function textDone(itemId: string, text: string, contentIndex = 0): Payload {
  return { type: 'response.output_text.done', item_id: itemId, output_index: 0, content_index: contentIndex, text };
}

export function partDone(itemId: string, text: string, contentIndex = 0): Payload {
  return { type: 'response.content_part.done', item_id: itemId, output_index: 0, content_index: contentIndex, part: { type: 'output_text', text } };
}

export function messageDone(id: string, texts: readonly string[]): Payload {
  const content = texts.map((text) => ({ type: 'output_text', text }));
  return { type: 'response.output_item.done', item: { id, type: 'message', status: 'completed', content, role: 'assistant' }, output_index: 0 };
}

/** A whole message item with one text part streamed as `deltas`. */
export function message(id: string, deltas: readonly string[]): Payload[] {
  const text = deltas.join('');
  return [messageAdded(id), partAdded(id), ...deltas.map((delta) => textDelta(id, delta)), textDone(id, text), partDone(id, text), messageDone(id, [text])];
}

export function callAdded(id: string, callId: string, name: string, outputIndex = 0): Payload {
  return { type: 'response.output_item.added', item: { id, type: 'function_call', status: 'in_progress', arguments: '', call_id: callId, name }, output_index: outputIndex };
}

export function argumentsDelta(itemId: string, delta: string): Payload {
  return { type: 'response.function_call_arguments.delta', item_id: itemId, output_index: 0, delta };
}

export function callDone(id: string, callId: string, name: string, args: string, status = 'completed'): Payload {
  return { type: 'response.output_item.done', item: { id, type: 'function_call', status, arguments: args, call_id: callId, name }, output_index: 0 };
}

export function reasoningAdded(id: string, encrypted?: string): Payload {
  return { type: 'response.output_item.added', item: { id, type: 'reasoning', ...(encrypted !== undefined && { encrypted_content: encrypted }), summary: [] }, output_index: 0 };
}

export function summaryPart(itemId: string, index: number, deltas: readonly string[]): Payload[] {
  const text = deltas.join('');
  const at = { item_id: itemId, output_index: 0, summary_index: index };
  return [
    { type: 'response.reasoning_summary_part.added', ...at, part: { type: 'summary_text', text: '' } },
    ...deltas.map((delta) => ({ type: 'response.reasoning_summary_text.delta', ...at, delta })),
    { type: 'response.reasoning_summary_text.done', ...at, text },
    { type: 'response.reasoning_summary_part.done', ...at, part: { type: 'summary_text', text } },
  ];
}

export function reasoningDone(id: string, summaries: readonly string[], encrypted?: string): Payload {
  const summary = summaries.map((text) => ({ type: 'summary_text', text }));
  return { type: 'response.output_item.done', item: { id, type: 'reasoning', ...(encrypted !== undefined && { encrypted_content: encrypted }), summary }, output_index: 0 };
}
