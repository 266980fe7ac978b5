import type { ApiKeyPrincipal, ApiKeyScope } from '@llm-stream/service-kit';
import type { ContractEvent, RawTraceEntry, StreamDetail } from '@llm-stream/contract';
import { carriesWithheld, isWithheldEvent, withheldFragments } from './withheld-content.js';

/** Every route of the query API accepts either audit scope; what it answers depends on {@link seesFullTruth}. */
export const AUDIT_SCOPES: readonly ApiKeyScope[] = ['audit:read', 'audit:full'];

/**
 * `audit:full` (auditors) reads the full truth; `audit:read` reads what the gateway shows the same key:
 * reasoning only when the key's `reasoning` policy is on.
 */
export function seesFullTruth(principal: ApiKeyPrincipal): boolean {
  return principal.scopes.has('audit:full') || principal.reasoning;
}

/** `GET /v1/streams/{id}` without reasoning: its events and its blocks in the assembled result. */
export function projectDetail(detail: StreamDetail): StreamDetail {
  const events = visibleEvents(detail.events);
  const seqs = new Set(events.map((event) => event.seq));
  return {
    ...detail,
    result: { ...detail.result, blocks: detail.result.blocks.filter((block) => block.kind !== 'reasoning') },
    events,
    event_times: detail.event_times.filter((time) => seqs.has(time.seq)),
  };
}

/**
 * `GET /v1/streams/{id}/raw` without reasoning: each record's events without reasoning ones, and a frame that
 * carries withheld content (it produced a reasoning event, or repeats reasoning text, a signature or encrypted
 * reasoning) replaced by a placeholder naming its raw_seq and its length in bytes.
 */
export function projectRawEntries(entries: readonly RawTraceEntry[], detail: Pick<StreamDetail, 'events' | 'result'>): RawTraceEntry[] {
  const fragments = withheldFragments(detail.events, detail.result.blocks);
  return entries.map((entry) => {
    const withheld = entry.text !== undefined && (entry.events.some(isWithheldEvent) || carriesWithheld(entry.text, fragments));
    if (!withheld) return { ...entry, events: visibleEvents(entry.events) };
    const bytes = Buffer.byteLength(entry.text, 'utf8');
    return {
      ...entry,
      text: `[withheld: raw_seq ${String(entry.raw_seq)}, ${String(bytes)} bytes of reasoning]`,
      withheld: { raw_seq: entry.raw_seq, bytes },
      events: visibleEvents(entry.events),
    };
  });
}

function visibleEvents(events: readonly ContractEvent[]): ContractEvent[] {
  return events.filter((event) => !isWithheldEvent(event));
}
