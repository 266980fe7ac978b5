// Rewrites of whole event lists for property tests: harmless ones (re-split deltas, insert heartbeats and
// warnings) that must not change the assembled result, and corruptions the invariant checker must catch.
import type { ContractEvent, StreamWarning } from '../src/index.js';
import { splitText } from './stream-plans.js';

/** seq 1, 2, 3... in list order, as the state machine would have numbered them. */
export function renumber(events: readonly ContractEvent[]): ContractEvent[] {
  return events.map((event, i) => ({ ...event, seq: i + 1 }));
}

/** Splits each delta into several at the given cut positions (one cut list per delta, reused cyclically). */
export function resplitDeltas(events: readonly ContractEvent[], cuts: readonly (readonly number[])[]): ContractEvent[] {
  let deltaNumber = 0;
  return events.flatMap((event): ContractEvent[] => {
    if (event.type !== 'block.delta') return [event];
    const eventCuts = cuts.length === 0 ? [] : (cuts[deltaNumber % cuts.length] ?? []);
    deltaNumber += 1;
    return splitText(event.delta.text, eventCuts).map((text) => ({ ...event, delta: { kind: event.delta.kind, text } }));
  });
}

export type Noise = 'heartbeat' | StreamWarning;

/**
 * Inserts heartbeats and warnings between stream.start and the terminal event (positions taken modulo the
 * allowed range): both are optional for clients and must not change anything.
 */
export function insertNoise(events: readonly ContractEvent[], noise: readonly (readonly [number, Noise])[]): ContractEvent[] {
  const out = [...events];
  const first = out[0];
  if (first === undefined) return out;
  for (const [position, item] of noise) {
    const terminal = out.findIndex((event) => event.type === 'stream.done' || event.type === 'stream.error');
    const last = terminal === -1 ? out.length : terminal;
    const at = 1 + (position % last);
    const envelope = { stream_id: first.stream_id, seq: 0, ts: first.ts };
    out.splice(
      at,
      0,
      item === 'heartbeat' ? { ...envelope, type: 'stream.heartbeat' } : { ...envelope, type: 'stream.warning', warning: item },
    );
  }
  return out;
}

export function duplicateEvent(events: readonly ContractEvent[], from: number, to: number): ContractEvent[] {
  const copy = events[from];
  if (copy === undefined) throw new Error(`no event ${from}`);
  return [...events.slice(0, to), { ...copy }, ...events.slice(to)];
}

export function dropEvent(events: readonly ContractEvent[], at: number): ContractEvent[] {
  return events.filter((_, i) => i !== at);
}

export function swapAdjacent(events: readonly ContractEvent[], at: number): ContractEvent[] {
  const out = [...events];
  const a = out[at];
  const b = out[at + 1];
  if (a === undefined || b === undefined) throw new Error(`cannot swap ${at} and ${at + 1}`);
  out[at] = b;
  out[at + 1] = a;
  return out;
}

export function changeSeq(events: readonly ContractEvent[], at: number, seq: number): ContractEvent[] {
  return events.map((event, i) => (i === at ? { ...event, seq } : event));
}
