import type { AttemptEndRecord, FailInput, MachineInput, UpstreamResponseRecord } from '@llm-stream/contract';
import type { ProviderAdapter } from '../adapter.js';
import { httpErrorFailure } from '../shared/http-error-failure.js';
import { numberField, objectField, parseJsonObject, stringField, type JsonObject } from '../shared/json-payload.js';
import { optional } from '../shared/optional.js';
import { protocolFailure, providerCancelled, providerFailure } from '../shared/protocol-failure.js';
import { unknownEvent } from '../shared/unknown-warning.js';
import type { SseFrame } from '../sse/sse-frame.js';
import { convertOpenAiResponsesUsage } from './convert-openai-responses-usage.js';
import { mapOpenAiResponsesErrorEvent, mapOpenAiResponsesFailed, readOpenAiErrorBody } from './map-openai-responses-error.js';
import { mapOpenAiResponsesCompleted, mapOpenAiResponsesIncomplete } from './map-openai-responses-stop-reason.js';
import { OPENAI_RESPONSES_EVENT_TYPES, type OpenAiResponsesEventType } from './openai-responses-chunk.js';
import { ResponsesOutputItems, type PartSlot } from './responses-output-items.js';

/** Where an event's part lives: its item and its slot in the item. */
interface PartAddress {
  readonly itemId: string;
  readonly slot: PartSlot;
}

/**
 * OpenAI Responses: typed events (`event: <type>` = `data.type`), output items keyed by item id, content
 * parts keyed by item id + content_index, reasoning summary parts by item id + summary_index (facts 13–20
 * of the conformance kit README). The provider's `sequence_number` stays in the raw trace (the frame text);
 * the contract's `seq` is the state machine's own. https://platform.openai.com/docs/api-reference/responses-streaming
 *
 * Where blocks start and stop (the protocol has no block-stop event of its own):
 *
 * | block | block.start | block.stop |
 * |---|---|---|
 * | text / refusal (message part) | content_part.added (or its first delta) | content_part.done |
 * | tool_call (function_call item) | output_item.added (name, call_id) | output_item.done, unless the item is `incomplete` |
 * | reasoning (one per summary part / reasoning_text part) | reasoning_summary_part.added / content_part.added (or first delta) | the next part of the same item, or the item's output_item.done (carries item_id + encrypted_content) |
 * | reasoning with encrypted_content and no part | output_item.done | output_item.done (empty block carrying the metadata) |
 *
 * Reasoning gets one block per summary part (and per reasoning_text part), not one per item: a summary part
 * is the provider's own content unit, with its own added/done events and index, exactly like a message's
 * content part; merging an item's parts into one block would need a separator the provider never sent.
 * The item's opaque encrypted_content rides on the block.stop of its last part.
 *
 * Events reach their item by `item_id`; an id no item was added under is tied to the item added at the
 * event's `output_index` (GitHub Copilot rotates the id on every event), and events without an id go by
 * output_index alone. Arrival order never routes anything.
 *
 * `*.done` events that repeat text are verified by length + rolling hash, never appended; a mismatch is a
 * `text_mismatch` warning and the streamed text stays. Content that arrives whole instead: a part or call
 * that streamed no text takes a done event's whole text as its one delta, parts that only output_item.done
 * holds become blocks there, and an output_item.done with no output_item.added adds the item too. function_call_arguments.done only verifies: the
 * call stops at output_item.done, the event that confirms its name and call id.
 *
 * | signal | outcome |
 * |---|---|
 * | response.completed | completed: tool_use (a function_call item streamed), else refusal (a refusal part), else end_turn |
 * | response.incomplete | completed: max_tokens (`max_output_tokens`), content_filter, other (any other reason) |
 * | response.failed | failed, categorized by `response.error.code` |
 * | `error` event (nested or flat shape) | failed, categorized by `code` (else the nested `type`); a later response.failed is ignored |
 * | response.cancelled | interrupted, client_cancelled |
 * | HTTP status >= 400 | failed, by status, with the body's `error.code` (else `error.type`) as provider_code |
 * | end of body without any of these | interrupted (added by the session) |
 *
 * A terminal event while a block is open (no content_part.done / output_item.done) fails with
 * protocol_error: the state machine refuses stream.done then. Unknown item types are skipped with all their
 * events (counted once as unknown_part); unknown event types are skipped and counted as unknown_event.
 */
export class OpenAiResponsesAdapter implements ProviderAdapter {
  readonly provider = 'openai-responses' as const;
  private ended = false;
  private readonly output = new ResponsesOutputItems();
  /** The item added at each output_index: routes events without `item_id`, or with a rotated one. */
  private readonly itemAtOutputIndex = new Map<number, string>();
  private responseId: string | undefined;
  private model: string | undefined;

  response(record: UpstreamResponseRecord): readonly MachineInput[] {
    if (record.status < 400) return [];
    return this.track([httpErrorFailure(record, readOpenAiErrorBody)]);
  }

  frame(frame: SseFrame): readonly MachineInput[] {
    if (this.ended || frame.data === undefined || frame.partial) return [];
    const parsed = parseJsonObject(frame.data);
    if (!parsed.ok) return this.track([protocolFailure(`openai-responses ${frame.event ?? 'event'}: ${parsed.error.message}`)]);
    const payload = parsed.value;
    const type = stringField(payload, 'type') ?? frame.event ?? '';
    if (!isKnownEvent(type)) {
      // Events of a skipped item (web_search_call.searching...) were counted with the item.
      const itemId = this.itemIdOf(payload);
      return itemId !== undefined && this.output.isSkipped(itemId) ? [] : [unknownEvent(type)];
    }
    return this.track(this.dispatch(type, payload));
  }

  end(_record: AttemptEndRecord): readonly MachineInput[] {
    return [];
  }

  private dispatch(type: OpenAiResponsesEventType, payload: JsonObject): readonly MachineInput[] {
    switch (type) {
      case 'response.created':
      case 'response.queued':
      case 'response.in_progress':
        this.remember(objectField(payload, 'response'));
        return [];
      case 'response.completed':
      case 'response.incomplete':
        return this.finish(type, objectField(payload, 'response'));
      case 'response.failed':
        return [providerFailure(mapOpenAiResponsesFailed(objectField(payload, 'response')))];
      case 'response.cancelled':
        return [cancelled()];
      case 'error':
        return [providerFailure(mapOpenAiResponsesErrorEvent(payload))];
      case 'response.output_item.added':
      case 'response.output_item.done':
        return this.item(type, payload);
      case 'response.content_part.added':
        return this.atPart(payload, 'c', ({ itemId, slot }) => this.output.addPart(itemId, slot, objectField(payload, 'part')));
      case 'response.reasoning_summary_part.added':
        return this.atPart(payload, 's', ({ itemId, slot }) => this.output.addPart(itemId, slot, objectField(payload, 'part')));
      case 'response.content_part.done':
      case 'response.reasoning_summary_part.done':
        return this.atPart(payload, type === 'response.content_part.done' ? 'c' : 's', ({ itemId, slot }) =>
          this.output.partDone(itemId, slot, objectField(payload, 'part'), type),
        );
      case 'response.output_text.delta':
        return this.atPart(payload, 'c', ({ itemId, slot }) => this.output.delta(itemId, slot, 'message', 'text', stringField(payload, 'delta')));
      case 'response.refusal.delta':
        return this.atPart(payload, 'c', ({ itemId, slot }) => this.output.delta(itemId, slot, 'message', 'refusal', stringField(payload, 'delta')));
      case 'response.reasoning_text.delta':
        return this.atPart(payload, 'c', ({ itemId, slot }) =>
          this.output.delta(itemId, slot, 'reasoning', 'reasoning', stringField(payload, 'delta')),
        );
      case 'response.reasoning_summary_text.delta':
        return this.atPart(payload, 's', ({ itemId, slot }) =>
          this.output.delta(itemId, slot, 'reasoning', 'reasoning', stringField(payload, 'delta')),
        );
      case 'response.output_text.done':
        return this.atPart(payload, 'c', ({ itemId, slot }) => this.output.textDone(itemId, slot, 'text', stringField(payload, 'text'), type));
      case 'response.refusal.done':
        return this.atPart(payload, 'c', ({ itemId, slot }) =>
          this.output.textDone(itemId, slot, 'refusal', stringField(payload, 'refusal'), type),
        );
      case 'response.reasoning_text.done':
        return this.atPart(payload, 'c', ({ itemId, slot }) =>
          this.output.textDone(itemId, slot, 'reasoning', stringField(payload, 'text'), type),
        );
      case 'response.reasoning_summary_text.done':
        return this.atPart(payload, 's', ({ itemId, slot }) =>
          this.output.textDone(itemId, slot, 'reasoning', stringField(payload, 'text'), type),
        );
      case 'response.function_call_arguments.delta':
        return this.atItem(payload, type, (itemId) => this.output.argumentsDelta(itemId, stringField(payload, 'delta')));
      case 'response.function_call_arguments.done':
        return this.atItem(payload, type, (itemId) =>
          this.output.textDone(itemId, 'c0', 'tool_call', stringField(payload, 'arguments'), type),
        );
      case 'response.output_text.annotation.added':
        // Citations annotate text already streamed; they add none.
        return [];
    }
  }

  private item(type: 'response.output_item.added' | 'response.output_item.done', payload: JsonObject): readonly MachineInput[] {
    const item = objectField(payload, 'item');
    const id = item ? stringField(item, 'id') : undefined;
    if (!item || id === undefined) return [protocolFailure(`openai-responses: ${type} without an item id`)];
    const outputIndex = numberField(payload, 'output_index');
    if (type === 'response.output_item.done') {
      const tied = this.tiedId(id, outputIndex);
      if (this.output.has(tied)) return this.output.finishItem(item, tied);
      // A whole item with no output_item.added before it: added and finished by the one event.
      return [...this.addItem(item, id, outputIndex), ...this.output.finishItem(item, id)];
    }
    return this.addItem(item, id, outputIndex);
  }

  private addItem(item: JsonObject, id: string, outputIndex: number | undefined): readonly MachineInput[] {
    if (outputIndex !== undefined) this.itemAtOutputIndex.set(outputIndex, id);
    return this.output.addItem(item, id);
  }

  private finish(type: 'response.completed' | 'response.incomplete', response: JsonObject | undefined): readonly MachineInput[] {
    this.remember(response);
    const details = response ? objectField(response, 'incomplete_details') : undefined;
    const reason =
      type === 'response.completed'
        ? mapOpenAiResponsesCompleted(this.output.summary)
        : mapOpenAiResponsesIncomplete(details ? stringField(details, 'reason') : undefined);
    return [
      {
        type: 'finish',
        ...reason,
        ...optional('usage', convertOpenAiResponsesUsage(response ? objectField(response, 'usage') : undefined)),
        ...optional('response_id', this.responseId),
        ...optional('provider_model', this.model),
      },
    ];
  }

  /** The response id and model, from the first response object and updated by later ones. */
  private remember(response: JsonObject | undefined): void {
    if (!response) return;
    this.responseId = stringField(response, 'id') ?? this.responseId;
    this.model = stringField(response, 'model') ?? this.model;
  }

  private atItem(payload: JsonObject, type: string, handle: (itemId: string) => readonly MachineInput[]): readonly MachineInput[] {
    const itemId = this.itemIdOf(payload);
    return itemId === undefined ? [protocolFailure(`openai-responses: ${type} without item_id`)] : handle(itemId);
  }

  private atPart(payload: JsonObject, prefix: 'c' | 's', handle: (address: PartAddress) => readonly MachineInput[]): readonly MachineInput[] {
    const field = prefix === 'c' ? 'content_index' : 'summary_index';
    const index = numberField(payload, field);
    const itemId = this.itemIdOf(payload);
    if (itemId === undefined || index === undefined || !Number.isSafeInteger(index) || index < 0) {
      return [protocolFailure(`openai-responses: ${stringField(payload, 'type') ?? 'event'} without item_id or ${field}`)];
    }
    return handle({ itemId, slot: `${prefix}${String(index)}` as PartSlot });
  }

  /** Events name their item by `item_id`; the output_index is the fallback, never arrival order. */
  private itemIdOf(payload: JsonObject): string | undefined {
    const itemId = stringField(payload, 'item_id');
    const outputIndex = numberField(payload, 'output_index');
    if (itemId === undefined) return outputIndex === undefined ? undefined : this.itemAtOutputIndex.get(outputIndex);
    return this.tiedId(itemId, outputIndex);
  }

  /**
   * An id no item was added under, on an event whose output_index names an added item, is that item: GitHub
   * Copilot's Responses endpoint puts a new `item_id` (and a new `item.id` in output_item.done) on every event
   * of one item, and only `output_index` ties them (vercel/ai fixture github-copilot-id-rotation; AI SDK
   * "correlate rotated item ids by output index"). Where the ids agree, or the id is known, it wins.
   */
  private tiedId(itemId: string, outputIndex: number | undefined): string {
    if (this.output.has(itemId) || outputIndex === undefined) return itemId;
    return this.itemAtOutputIndex.get(outputIndex) ?? itemId;
  }

  /** Nothing follows the adapter's own terminal input. */
  private track(inputs: readonly MachineInput[]): readonly MachineInput[] {
    if (inputs.some((input) => input.type === 'finish' || input.type === 'fail')) this.ended = true;
    return inputs;
  }
}

/** response.cancelled: the response was stopped before a result. */
function cancelled(): FailInput {
  return providerCancelled(null, 'the provider reported the response as cancelled');
}

function isKnownEvent(type: string): type is OpenAiResponsesEventType {
  return (OPENAI_RESPONSES_EVENT_TYPES as readonly string[]).includes(type);
}
