import type { Settlement } from '@llm-stream/pipeline';
import type { HandlerOutcome } from './handler-instrumentation.js';

const KINDS: ReadonlySet<string> = new Set<Settlement['kind']>(['ack', 'nak', 'term', 'held']);

function isSettlement(value: unknown): value is Settlement {
  if (typeof value !== 'object' || value === null) return false;
  const { kind, delayMs } = value as { kind?: unknown; delayMs?: unknown };
  return typeof kind === 'string' && KINDS.has(kind) && (delayMs === undefined || typeof delayMs === 'number');
}

/** A JetStream handler's result as a settlement; anything else is a programmer error (the handler fails). */
export function settlementOf(pattern: string, value: unknown): Settlement {
  if (!isSettlement(value)) throw new TypeError(`the ${pattern} handler must return a Settlement (ack, nak, term or held)`);
  return value;
}

/** A batch handler's result: one settlement per message, in the batch's order. */
export function batchSettlementsOf(pattern: string, value: unknown, size: number): Settlement[] {
  if (!Array.isArray(value) || value.length !== size) throw new TypeError(`the ${pattern} handler must return one Settlement per message of the batch`);
  return value.map((each) => settlementOf(pattern, each));
}

/** The handler-metrics outcome of a settlement (`settled`: the handler holds the message and settles it itself). */
export function outcomeOf(settlement: Settlement): HandlerOutcome {
  switch (settlement.kind) {
    case 'ack':
      return 'ack';
    case 'nak':
      return 'nak';
    case 'term':
      return 'term';
    case 'held':
      return 'settled';
  }
}
