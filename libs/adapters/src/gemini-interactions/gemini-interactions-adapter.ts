import type { AttemptEndRecord, MachineInput, UpstreamResponseRecord, Usage } from '@llm-stream/contract';
import type { ProviderAdapter } from '../adapter.js';
import { fragment } from '../shared/block-inputs.js';
import { isObject, numberField, objectField, parseJsonObject, stringField, type JsonObject } from '../shared/json-payload.js';
import { optional } from '../shared/optional.js';
import { protocolFailure, providerFailure } from '../shared/protocol-failure.js';
import { unknownEvent, unknownPart } from '../shared/unknown-warning.js';
import type { SseFrame } from '../sse/sse-frame.js';
import { convertInteractionsUsage } from './convert-interactions-usage.js';
import { INTERACTIONS_EVENT_TYPES, SILENT_DELTA_TYPES, STEP_KINDS, type InteractionsEventType } from './interactions-chunk.js';
import { InteractionsSteps, type Step } from './interactions-steps.js';
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
 * | interaction.status_update failed                           | failed, upstream_error, provider code `failed`          |
 * | the same, status in_progress / queued; other status_update | nothing (the final status comes with .completed)        |
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
  private readonly steps = new InteractionsSteps();
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
        return this.start('s', payload, 'step');
      case 'content.start':
        return this.start('c', payload, 'content');
      case 'step.delta':
        return this.delta('s', payload);
      case 'content.delta':
        return this.delta('c', payload);
      case 'step.stop':
        this.readUsage(objectField(payload, 'usage'));
        return this.stop('s', payload);
      case 'content.stop':
        return this.stop('c', payload);
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
    const outcome = mapInteractionsStatus(status, this.steps.calledFunctions);
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
    const outcome = mapInteractionsStatus(status, this.steps.calledFunctions);
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

  /** step.start (`step` object) or content.start (`content` object). */
  private start(prefix: 's' | 'c', payload: JsonObject, field: 'step' | 'content'): readonly MachineInput[] {
    const index = stepIndex(payload);
    if (index === undefined) return this.settle([protocolFailure(`gemini-interactions: ${field} start without a valid index`)]);
    const key = `${prefix}${String(index)}`;
    if (this.steps.has(key)) return this.settle([protocolFailure(`gemini-interactions: ${field} ${String(index)} started twice`)]);
    const body = objectField(payload, field);
    const type = body === undefined ? undefined : stringField(body, 'type');
    if (body === undefined || type === undefined) return this.settle([protocolFailure(`gemini-interactions: ${field} start without a typed ${field}`)]);
    const kind = STEP_KINDS[type];
    if (kind === undefined) {
      this.steps.start(key, 'skipped');
      return [unknownPart(`${field} ${type}`)];
    }
    const step = this.steps.start(key, kind);
    switch (kind) {
      case 'text':
        return this.startText(step, body, field);
      case 'reasoning':
        return this.startThought(step, body);
      case 'tool_call':
        return this.startCall(step, body, index);
    }
  }

  /** A model_output step's `content` items (or a legacy text block's `text`) arrived whole. */
  private startText(step: Step, body: JsonObject, field: 'step' | 'content'): readonly MachineInput[] {
    if (field === 'content') return this.text(step, stringField(body, 'text'));
    const content = body['content'];
    if (content === undefined) return [];
    if (!Array.isArray(content)) return this.settle([protocolFailure('gemini-interactions: model_output content is not an array')]);
    const out: MachineInput[] = [];
    for (const item of content) {
      if (!isObject(item)) return this.settle([protocolFailure('gemini-interactions: a content item is not an object')]);
      const type = stringField(item, 'type') ?? '';
      out.push(...(type === 'text' ? this.text(step, stringField(item, 'text')) : [unknownPart(`content ${type}`)]));
    }
    return out;
  }

  private startThought(step: Step, body: JsonObject): readonly MachineInput[] {
    step.opened = true;
    const out: MachineInput[] = [{ type: 'block.open', key: step.key, kind: 'reasoning' }];
    const summary = body['summary'];
    if (Array.isArray(summary)) {
      for (const item of summary) out.push(...this.summary(step, item));
    }
    out.push(...fragment(step.key, 'signature', stringField(body, 'signature'), true));
    return out;
  }

  private startCall(step: Step, body: JsonObject, index: number): readonly MachineInput[] {
    const name = stringField(body, 'name');
    if (name === undefined) return this.settle([protocolFailure('gemini-interactions: a function_call without a name')]);
    step.opened = true;
    step.signature = stringField(body, 'signature');
    const whole = wholeArguments(body['arguments']);
    if (!whole.ok) return this.settle([protocolFailure(whole.message)]);
    step.wholeArguments = whole.text;
    return [{ type: 'block.open', key: step.key, kind: 'tool_call', name, call_id: stringField(body, 'id') ?? `call_${String(index)}` }];
  }

  private delta(prefix: 's' | 'c', payload: JsonObject): readonly MachineInput[] {
    const step = this.liveStep(prefix, payload, 'delta');
    if (!('key' in step)) return step.failure;
    if (step.kind === 'skipped') return [];
    const delta = objectField(payload, 'delta');
    const type = delta === undefined ? undefined : stringField(delta, 'type');
    if (delta === undefined || type === undefined) return this.settle([protocolFailure('gemini-interactions: a delta without a typed delta object')]);
    if (SILENT_DELTA_TYPES.includes(type)) return [];
    switch (type) {
      case 'text':
        return step.kind === 'text' ? this.text(step, stringField(delta, 'text')) : this.misplaced(type, step);
      case 'thought_summary':
        return step.kind === 'reasoning' ? this.summary(step, delta['content']) : this.misplaced(type, step);
      case 'thought_signature':
        return this.signature(step, stringField(delta, 'signature'));
      case 'arguments_delta': {
        if (step.kind !== 'tool_call') return this.misplaced(type, step);
        const text = stringField(delta, 'arguments');
        if (text) step.streamedArguments = true;
        return fragment(step.key, 'json_text', text, true);
      }
      case 'function_call': {
        if (step.kind !== 'tool_call') return this.misplaced(type, step);
        const whole = wholeArguments(delta['arguments']);
        if (!whole.ok) return this.settle([protocolFailure(whole.message)]);
        step.wholeArguments = whole.text ?? step.wholeArguments;
        return [];
      }
      default:
        return [unknownPart(`delta ${type}`)];
    }
  }

  private stop(prefix: 's' | 'c', payload: JsonObject): readonly MachineInput[] {
    const step = this.liveStep(prefix, payload, 'stop');
    return 'key' in step ? this.steps.stop(step) : step.failure;
  }

  /** The started, not yet stopped step an event's `index` names, or the failure to report. */
  private liveStep(prefix: 's' | 'c', payload: JsonObject, what: string): Step | { readonly failure: readonly MachineInput[] } {
    const index = stepIndex(payload);
    const step = index === undefined ? undefined : this.steps.get(`${prefix}${String(index)}`);
    const field = prefix === 's' ? 'step' : 'content';
    if (step === undefined) return { failure: this.settle([protocolFailure(`gemini-interactions: a ${field} ${what} for an index never started`)]) };
    if (step.stopped) return { failure: this.settle([protocolFailure(`gemini-interactions: a ${field} ${what} after its stop`)]) };
    return step;
  }

  private text(step: Step, text: string | undefined): readonly MachineInput[] {
    if (!text) return [];
    const out: MachineInput[] = [];
    if (!step.opened) {
      step.opened = true;
      out.push({ type: 'block.open', key: step.key, kind: 'text' });
    }
    out.push(...fragment(step.key, 'text', text, true));
    return out;
  }

  /** A thought summary item `{type: "text", text}`; images in summaries have no block. */
  private summary(step: Step, item: unknown): readonly MachineInput[] {
    if (!isObject(item)) return this.settle([protocolFailure('gemini-interactions: a thought summary is not an object')]);
    const type = stringField(item, 'type') ?? '';
    return type === 'text' ? fragment(step.key, 'text', stringField(item, 'text'), true) : [unknownPart(`thought_summary ${type}`)];
  }

  /** A thought's signature is a signature delta; a function call's rides on its block.stop. */
  private signature(step: Step, signature: string | undefined): readonly MachineInput[] {
    switch (step.kind) {
      case 'reasoning':
        return fragment(step.key, 'signature', signature, true);
      case 'tool_call':
        step.signature = (step.signature ?? '') + (signature ?? '');
        return [];
      case 'text':
        return this.misplaced('thought_signature', step);
      case 'skipped':
        return [];
    }
  }

  private misplaced(deltaType: string, step: Step): readonly MachineInput[] {
    return this.settle([protocolFailure(`gemini-interactions: a ${deltaType} delta for a ${step.kind} step`)]);
  }

  private settle(inputs: readonly MachineInput[]): readonly MachineInput[] {
    this.ended = true;
    return inputs;
  }
}

function isKnownEvent(type: string): type is InteractionsEventType {
  return (INTERACTIONS_EVENT_TYPES as readonly string[]).includes(type);
}

function stepIndex(payload: JsonObject): number | undefined {
  const index = numberField(payload, 'index');
  return index !== undefined && Number.isSafeInteger(index) && index >= 0 ? index : undefined;
}

function cancelled(): MachineInput {
  return {
    type: 'fail',
    status: 'interrupted',
    error: { category: 'client_cancelled', retryable: null, provider_code: 'cancelled', message: 'the interaction was cancelled' },
  };
}

/**
 * Arguments that arrived whole: an object other than the `{}` placeholder as its JSON text, undefined for
 * the placeholder or no arguments; anything else is not the protocol.
 */
function wholeArguments(value: unknown): { readonly ok: true; readonly text: string | undefined } | { readonly ok: false; readonly message: string } {
  if (value === undefined || value === null) return { ok: true, text: undefined };
  if (!isObject(value)) return { ok: false, message: 'gemini-interactions: function_call arguments are not an object' };
  return { ok: true, text: Object.keys(value).length === 0 ? undefined : JSON.stringify(value) };
}
