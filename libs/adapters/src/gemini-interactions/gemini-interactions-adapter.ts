import type { AttemptEndRecord, MachineInput, UpstreamResponseRecord, Usage } from '@llm-stream/contract';
import type { ProviderAdapter } from '../adapter.js';
import { objectField, parseJsonObject, stringField, type JsonObject } from '../shared/json-payload.js';
import { optional } from '../shared/optional.js';
import { protocolFailure, providerCancelled, providerFailure } from '../shared/protocol-failure.js';
import { unknownEvent } from '../shared/unknown-warning.js';
import type { SseFrame } from '../sse/sse-frame.js';
import { convertInteractionsUsage } from './convert-interactions-usage.js';
import { INTERACTIONS_EVENT_TYPES, type InteractionsEventType } from './interactions-chunk.js';
import { InteractionsStepEvents } from './interactions-step-events.js';
import { interactionsHttpFailure, mapInteractionsError } from './map-interactions-error.js';
import { mapInteractionsStatus } from './map-interactions-status.js';

/**
 * Gemini Interactions API (`POST /v1beta/interactions`, `"stream": true`): `interaction.created`, then per
 * step `step.start` / `step.delta` / `step.stop` (keyed by the step's `index`), `interaction.status_update`
 * anywhere, and `interaction.completed` carrying the final status and usage; with steps disabled the legacy
 * `interaction.start`, `content.start/delta/stop` and `interaction.complete`. Records are dispatched on the
 * payload's `event_type` (the SSE `event:` field only when it is missing); `event_id` is the provider's
 * resume token and stays in the trace. https://ai.google.dev/api/interactions-api#streaming
 *
 * | signal                                                     | outcome                                                 |
 * |------------------------------------------------------------|---------------------------------------------------------|
 * | interaction.completed / .complete, status completed        | completed, end_turn (tool_use after a function_call)    |
 * | the same, status requires_action                           | completed, tool_use (a turn paused for function results)|
 * | the same, status incomplete / budget_exceeded              | completed, max_tokens                                   |
 * | the same, an unknown status                                | completed, other (raw status kept)                      |
 * | the same while a step is still open                        | failed, protocol_error (named by the state machine)     |
 * | the same, status failed (its `error` mapped when present)  | failed, upstream_error unless the error says otherwise  |
 * | the same, status cancelled; status_update cancelled        | interrupted, client_cancelled                           |
 * | the same, status in_progress / queued, or no status        | failed, protocol_error                                  |
 * | interaction.status_update failed                           | failed, upstream_error, provider code `failed`          |
 * | any other interaction.status_update                        | nothing (the final status comes with .completed)        |
 * | event error                                                | failed, category by error code (mapper)                 |
 * | HTTP status >= 400 before any frame                        | failed, category by status, code from the body          |
 * | data: [DONE] after the terminal event                      | nothing                                                 |
 * | data: [DONE] before it                                     | failed, protocol_error                                  |
 * | invalid JSON, a delta/stop for a step never started, a     | failed, protocol_error                                  |
 * | second start of an index, a delta of the wrong kind        |                                                         |
 * | body ends without any of these                             | interrupted (added by the session)                      |
 *
 * After the first of these nothing more is emitted. Unknown event types are skipped and reported
 * (`unknown_event`); unknown step and delta types and server-side tool steps (`google_search_call`,
 * `code_execution_result`...: never a client tool call) are skipped and reported (`unknown_part`).
 *
 * Blocks: a `model_output` step (legacy `text` content) is one text block, opened at its first text (a
 * step of media alone opens nothing); a `thought` step is one reasoning block: its summary text as text
 * deltas (`thought_summary`), its `signature` (on step.start or as `thought_signature` deltas) as signature
 * deltas; a `function_call` step is one tool_call block named by the step's `name` and `id` (else
 * `call_<index>`). Arguments arrive as `arguments_delta` text, or whole as the step's `arguments` object
 * (legacy: a `function_call` delta); whole arguments other than the `{}` placeholder are the call's one
 * json_text delta at step.stop unless deltas streamed them, which then win. A function call's `signature`
 * rides byte-exact on its block.stop as `{"gemini-interactions": {"signature": ...}}`. `step.stop` is the
 * block's stop; none is stopped on the provider's behalf.
 */
export class GeminiInteractionsAdapter implements ProviderAdapter {
  readonly provider = 'gemini-interactions' as const;
  private ended = false;
  private readonly stepEvents = new InteractionsStepEvents();
  private usage: Usage | undefined;
  private interactionId: string | undefined;
  private model: string | undefined;

  response(record: UpstreamResponseRecord): readonly MachineInput[] {
    if (this.ended || record.status < 400) return [];
    return this.settle([interactionsHttpFailure(record)]);
  }

  frame(frame: SseFrame): readonly MachineInput[] {
    if (this.ended || frame.data === undefined || frame.partial) return [];
    if (frame.data.trim() === '[DONE]') return this.settle([protocolFailure('gemini-interactions: [DONE] before interaction.completed')]);
    const parsed = parseJsonObject(frame.data);
    if (!parsed.ok) return this.settle([protocolFailure(`gemini-interactions ${frame.event ?? 'event'}: ${parsed.error.message}`)]);
    const payload = parsed.value;
    const type = stringField(payload, 'event_type') ?? frame.event ?? '';
    if (!isKnownEvent(type)) return [unknownEvent(type)];
    return this.dispatch(type, payload);
  }

  end(_record: AttemptEndRecord): readonly MachineInput[] {
    return [];
  }

  private dispatch(type: InteractionsEventType, payload: JsonObject): readonly MachineInput[] {
    switch (type) {
      case 'interaction.created':
      case 'interaction.start':
        this.readInteraction(objectField(payload, 'interaction'));
        return [];
      case 'interaction.status_update':
        return this.statusUpdate(payload);
      case 'interaction.completed':
      case 'interaction.complete':
        return this.complete(type, objectField(payload, 'interaction'));
      case 'step.start':
        return this.content(this.stepEvents.start('s', payload, 'step'));
      case 'content.start':
        return this.content(this.stepEvents.start('c', payload, 'content'));
      case 'step.delta':
        return this.content(this.stepEvents.delta('s', payload));
      case 'content.delta':
        return this.content(this.stepEvents.delta('c', payload));
      case 'step.stop':
        this.readUsage(objectField(payload, 'usage'));
        return this.content(this.stepEvents.stop('s', payload));
      case 'content.stop':
        return this.content(this.stepEvents.stop('c', payload));
      case 'error': {
        const error = objectField(payload, 'error');
        return this.settle([error ? providerFailure(mapInteractionsError(error)) : protocolFailure('gemini-interactions: error event without an error object')]);
      }
    }
  }

  /** The interaction's id, model and usage, from any lifecycle event that carries them. */
  private readInteraction(interaction: JsonObject | undefined): void {
    if (!interaction) return;
    this.interactionId = stringField(interaction, 'id') ?? this.interactionId;
    this.model = stringField(interaction, 'model') ?? this.model;
    this.readUsage(objectField(interaction, 'usage'));
  }

  private readUsage(usage: JsonObject | undefined): void {
    const converted = usage === undefined ? undefined : convertInteractionsUsage(usage);
    if (converted !== undefined) this.usage = converted;
  }

  private statusUpdate(payload: JsonObject): readonly MachineInput[] {
    const status = stringField(payload, 'status');
    if (status === undefined) return this.settle([protocolFailure('gemini-interactions: interaction.status_update without a status')]);
    const outcome = mapInteractionsStatus(status, this.stepEvents.calledFunctions);
    switch (outcome.kind) {
      case 'failed':
        return this.settle([providerFailure(outcome.error)]);
      case 'cancelled':
        return this.settle([cancelled()]);
      case 'completed':
      case 'running':
        return [];
    }
  }

  private complete(type: InteractionsEventType, interaction: JsonObject | undefined): readonly MachineInput[] {
    if (!interaction) return this.settle([protocolFailure(`gemini-interactions: ${type} without an interaction`)]);
    this.readInteraction(interaction);
    const status = stringField(interaction, 'status');
    if (status === undefined) return this.settle([protocolFailure(`gemini-interactions: ${type} without a status`)]);
    const outcome = mapInteractionsStatus(status, this.stepEvents.calledFunctions);
    switch (outcome.kind) {
      case 'running':
        return this.settle([protocolFailure(`gemini-interactions: ${type} with status ${status}`)]);
      case 'cancelled':
        return this.settle([cancelled()]);
      case 'failed': {
        const error = objectField(interaction, 'error');
        return this.settle([providerFailure(error ? mapInteractionsError(error) : outcome.error)]);
      }
      case 'completed':
        return this.settle([
          {
            type: 'finish',
            stop_reason: outcome.stop_reason,
            provider_stop_reason: status,
            ...optional('usage', this.usage),
            ...optional('response_id', this.interactionId),
            ...optional('provider_model', this.model),
          },
        ]);
    }
  }

  /** Inputs of a content event: a failure among them ends the stream. */
  private content(inputs: readonly MachineInput[]): readonly MachineInput[] {
    return inputs.some((input) => input.type === 'fail') ? this.settle(inputs) : inputs;
  }

  private settle(inputs: readonly MachineInput[]): readonly MachineInput[] {
    this.ended = true;
    return inputs;
  }
}

function isKnownEvent(type: string): type is InteractionsEventType {
  return (INTERACTIONS_EVENT_TYPES as readonly string[]).includes(type);
}

function cancelled(): MachineInput {
  return providerCancelled('cancelled', 'the interaction was cancelled');
}

