import type { MachineInput } from '@llm-stream/contract';
import { fragment } from '../shared/block-inputs.js';
import { isObject, numberField, objectField, stringField, type JsonObject } from '../shared/json-payload.js';
import { protocolFailure } from '../shared/protocol-failure.js';
import { unknownPart } from '../shared/unknown-warning.js';
import { SILENT_DELTA_TYPES, STEP_KINDS } from './interactions-chunk.js';
import { InteractionsSteps, type Step } from './interactions-steps.js';

/**
 * The content events of an interaction: `step.start/delta/stop` (prefix `s`) and the legacy
 * `content.start/delta/stop` (prefix `c`), as block inputs (the block rules are in the adapter's TSDoc). A
 * violation is returned as a `fail` input, after which the caller reads nothing more; nothing here ends the
 * stream on its own.
 */
export class InteractionsStepEvents {
  private readonly steps = new InteractionsSteps();

  /** Whether a client function call was started (completed -> tool_use). */
  get calledFunctions(): boolean {
    return this.steps.calledFunctions;
  }

  /** step.start (`step` object) or content.start (`content` object). */
  start(prefix: 's' | 'c', payload: JsonObject, field: 'step' | 'content'): readonly MachineInput[] {
    const index = stepIndex(payload);
    if (index === undefined) return [protocolFailure(`gemini-interactions: ${field} start without a valid index`)];
    const key = `${prefix}${String(index)}`;
    if (this.steps.has(key)) return [protocolFailure(`gemini-interactions: ${field} ${String(index)} started twice`)];
    const body = objectField(payload, field);
    const type = body === undefined ? undefined : stringField(body, 'type');
    if (body === undefined || type === undefined) return [protocolFailure(`gemini-interactions: ${field} start without a typed ${field}`)];
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
    if (!Array.isArray(content)) return [protocolFailure('gemini-interactions: model_output content is not an array')];
    const out: MachineInput[] = [];
    for (const item of content) {
      if (!isObject(item)) return [protocolFailure('gemini-interactions: a content item is not an object')];
      const type = stringField(item, 'type') ?? '';
      out.push(...(type === 'text' ? this.text(step, stringField(item, 'text')) : [unknownPart(`content ${type}`)]));
    }
    return out;
  }

  private startThought(step: Step, body: JsonObject): readonly MachineInput[] {
    step.opened = true;
    const out: MachineInput[] = [{ type: 'block.open', key: step.key, kind: 'reasoning' }];
    const summary = body['summary'];
    for (const item of Array.isArray(summary) ? summary : []) {
      const inputs = this.summary(step, item);
      if (inputs.some((input) => input.type === 'fail')) return inputs;
      out.push(...inputs);
    }
    out.push(...fragment(step.key, 'signature', stringField(body, 'signature'), true));
    return out;
  }

  private startCall(step: Step, body: JsonObject, index: number): readonly MachineInput[] {
    const name = stringField(body, 'name');
    if (name === undefined) return [protocolFailure('gemini-interactions: a function_call without a name')];
    step.opened = true;
    step.signature = stringField(body, 'signature');
    const whole = wholeArguments(body['arguments']);
    if (!whole.ok) return [protocolFailure(whole.message)];
    step.wholeArguments = whole.text;
    return [{ type: 'block.open', key: step.key, kind: 'tool_call', name, call_id: stringField(body, 'id') ?? `call_${String(index)}` }];
  }

  delta(prefix: 's' | 'c', payload: JsonObject): readonly MachineInput[] {
    const step = this.liveStep(prefix, payload, 'delta');
    if (!('key' in step)) return step.failure;
    if (step.kind === 'skipped') return [];
    const delta = objectField(payload, 'delta');
    const type = delta === undefined ? undefined : stringField(delta, 'type');
    if (delta === undefined || type === undefined) return [protocolFailure('gemini-interactions: a delta without a typed delta object')];
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
        if (!whole.ok) return [protocolFailure(whole.message)];
        step.wholeArguments = whole.text ?? step.wholeArguments;
        return [];
      }
      default:
        return [unknownPart(`delta ${type}`)];
    }
  }

  stop(prefix: 's' | 'c', payload: JsonObject): readonly MachineInput[] {
    const step = this.liveStep(prefix, payload, 'stop');
    return 'key' in step ? this.steps.stop(step) : step.failure;
  }

  /** The started, not yet stopped step an event's `index` names, or the failure to report. */
  private liveStep(prefix: 's' | 'c', payload: JsonObject, what: string): Step | { readonly failure: readonly MachineInput[] } {
    const index = stepIndex(payload);
    const step = index === undefined ? undefined : this.steps.get(`${prefix}${String(index)}`);
    const field = prefix === 's' ? 'step' : 'content';
    if (step === undefined) return { failure: [protocolFailure(`gemini-interactions: a ${field} ${what} for an index never started`)] };
    if (step.stopped) return { failure: [protocolFailure(`gemini-interactions: a ${field} ${what} after its stop`)] };
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
    if (!isObject(item)) return [protocolFailure('gemini-interactions: a thought summary is not an object')];
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
    return [protocolFailure(`gemini-interactions: a ${deltaType} delta for a ${step.kind} step`)];
  }
}

function stepIndex(payload: JsonObject): number | undefined {
  const index = numberField(payload, 'index');
  return index !== undefined && Number.isSafeInteger(index) && index >= 0 ? index : undefined;
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
