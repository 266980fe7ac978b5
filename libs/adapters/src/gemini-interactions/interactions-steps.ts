import type { JsonValue, MachineInput, ProviderMetadata } from '@llm-stream/contract';
import { optional } from '../shared/optional.js';
import type { StepKind } from './interactions-chunk.js';

/** One step (or legacy content block) the provider started, by its `index`. */
export interface Step {
  /** The adapter's key of its block: `s<index>` for steps, `c<index>` for legacy content. */
  readonly key: string;
  /** What it maps to; `skipped` for server-side tools, media and unknown types. */
  readonly kind: StepKind | 'skipped';
  /** Whether its block was opened (a model_output step opens at its first text). */
  opened: boolean;
  stopped: boolean;
  /** A function call's arguments that arrived whole (step.start or a legacy function_call delta). */
  wholeArguments: string | undefined;
  /** Whether an `arguments_delta` streamed the arguments (they then win over whole ones). */
  streamedArguments: boolean;
  /** A function call's `signature`, carried on its block.stop. */
  signature: string | undefined;
}

/**
 * The adapter's step bookkeeping. Steps are keyed by the provider's `index`; a second start of an index, a
 * delta or stop for an index never started, or anything for a stopped step is a protocol violation the
 * caller reports. Steps may interleave (the state machine gives blocks their public index in order of
 * first appearance).
 */
export class InteractionsSteps {
  private readonly steps = new Map<string, Step>();
  private calls = 0;

  /** Whether a client function call was started (completed -> tool_use). */
  get calledFunctions(): boolean {
    return this.calls > 0;
  }

  get(key: string): Step | undefined {
    return this.steps.get(key);
  }

  has(key: string): boolean {
    return this.steps.has(key);
  }

  start(key: string, kind: Step['kind']): Step {
    const step: Step = { key, kind, opened: false, stopped: false, wholeArguments: undefined, streamedArguments: false, signature: undefined };
    if (kind === 'tool_call') this.calls += 1;
    this.steps.set(key, step);
    return step;
  }

  /** block.stop of a step, with its whole arguments first when no delta streamed them. */
  stop(step: Step): readonly MachineInput[] {
    step.stopped = true;
    if (!step.opened) return [];
    const out: MachineInput[] = [];
    if (step.kind === 'tool_call' && !step.streamedArguments && step.wholeArguments !== undefined) {
      out.push({ type: 'block.append', key: step.key, delta: { kind: 'json_text', text: step.wholeArguments } });
    }
    out.push({ type: 'block.close', key: step.key, ...optional('provider_metadata', signatureMetadata(step.signature)) });
    return out;
  }
}

/** A function call's signature, byte-exact, under the provider's key. */
function signatureMetadata(signature: string | undefined): ProviderMetadata | undefined {
  if (signature === undefined) return undefined;
  const value: JsonValue = signature;
  return { 'gemini-interactions': { signature: value } };
}
