import { normalizeTranscript } from '@llm-stream/adapters';
import { checkInvariants, isTerminalEvent, type ContractEvent, type ProviderName } from '@llm-stream/contract';

/**
 * An event list with what legitimately differs between two runs of the same stream taken out: the stream id
 * (also inside block ids) and receive times. Everything else must be equal.
 */
export function canonical(events: readonly ContractEvent[]): unknown[] {
  return events.map((event) => {
    const text = JSON.stringify(event).split(event.stream_id).join('<stream>');
    return { ...(JSON.parse(text) as Record<string, unknown>), ts: 0 };
  });
}

/** The HTTP projection of a key whose policy withholds reasoning (the gateway's rule, restated). */
export function withoutReasoning(events: readonly ContractEvent[]): ContractEvent[] {
  return events.filter((event) => !('block' in event) || event.block.kind !== 'reasoning');
}

/**
 * What `llm-stream normalize` gives for a transcript, with the identity the gateway would give it: a stream
 * posted to `/v1/streams/<protocol>` goes through that protocol's default route.
 */
export function normalizedInProcess(provider: ProviderName, bytes: Uint8Array, model: string, tenant: string, route: string = provider): ContractEvent[] {
  return normalizeTranscript(provider, bytes, { streamId: 'st_in_process', tenant, model, route }).events;
}

/**
 * Problems of a finished full-truth sequence: seq exactly 1..n (gapless, no duplicates), the invariant
 * checker clean, and one terminal event, last. Empty when all is well (tests compare it with []).
 */
export function sequenceProblems(events: readonly ContractEvent[]): string[] {
  const problems: string[] = [];
  events.forEach((event, position) => {
    if (event.seq !== position + 1) problems.push(`event ${String(position)} has seq ${String(event.seq)}`);
  });
  for (const violation of checkInvariants(events)) problems.push(`${violation.rule}: ${violation.message}`);
  const terminals = events.filter(isTerminalEvent).length;
  if (terminals !== 1 || !isTerminalEvent(events.at(-1) ?? events[0]!))
    problems.push(`${String(terminals)} terminal events, not one at the end`);
  return problems;
}

/** Problems of a client's projection: strictly increasing seq that may skip, invariants of a projection. */
export function projectionProblems(events: readonly ContractEvent[]): string[] {
  return checkInvariants(events, { projection: true }).map((violation) => `${violation.rule}: ${violation.message}`);
}

/** The terminal event, or undefined. */
export function terminalOf(events: readonly ContractEvent[]): ContractEvent | undefined {
  return events.find(isTerminalEvent);
}

/** The text of every text delta, joined: what a reader of the answer saw. */
export function textOf(events: readonly ContractEvent[]): string {
  return events.map((event) => (event.type === 'block.delta' && event.block.kind === 'text' ? event.delta.text : '')).join('');
}
