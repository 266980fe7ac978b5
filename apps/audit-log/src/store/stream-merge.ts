import { assertNever } from '@llm-stream/contract';
import type { IncomingEvent, IncomingRaw } from './audit-repository.js';
import { unknownTypeOf } from './event-ingest-plan.js';
import type { StreamRow } from './stream-record.js';

/**
 * Folds newly stored events into their stream's row. Pure. Every field is set by the first event that
 * carries it (a second terminal event, which the contract forbids, changes nothing), so the result does not
 * depend on how redeliveries split the events into batches.
 */
export function applyEvents(row: StreamRow, fresh: readonly IncomingEvent[], head: { seq: number; hash: string }, now: number): StreamRow {
  const next: StreamRow = { ...row, chain_seq: head.seq, chain_hash: head.hash, event_count: row.event_count + fresh.length, updated_at: now };
  for (const item of fresh) {
    const { event } = item;
    next.started_at = Math.min(next.started_at, event.ts);
    next.trace_id ??= item.traceId;
    switch (event.type) {
      case 'stream.start':
        next.provider ??= event.provider;
        next.model ??= event.model;
        next.route ??= event.route ?? null;
        break;
      case 'stream.done':
        if (next.status !== 'running') break;
        next.status = 'completed';
        next.ended_at = event.ts;
        next.terminal_seq = event.seq;
        next.stop_reason = event.stop_reason;
        next.provider_stop_reason = event.provider_stop_reason;
        next.response_id = event.response_id ?? null;
        next.provider_model = event.provider_model ?? null;
        if (event.usage !== undefined) {
          next.input_tokens = event.usage.input_tokens;
          next.output_tokens = event.usage.output_tokens;
          next.reasoning_tokens = event.usage.reasoning_tokens ?? null;
          next.cached_input_tokens = event.usage.cached_input_tokens ?? null;
          next.cache_creation_input_tokens = event.usage.cache_creation_input_tokens ?? null;
          next.cache_creation_5m_input_tokens = event.usage.cache_creation?.ephemeral_5m_input_tokens ?? null;
          next.cache_creation_1h_input_tokens = event.usage.cache_creation?.ephemeral_1h_input_tokens ?? null;
        }
        break;
      case 'stream.error':
        if (next.status !== 'running') break;
        next.status = event.status;
        next.ended_at = event.ts;
        next.terminal_seq = event.seq;
        next.error_category = event.error.category;
        next.error_provider_code = event.error.provider_code;
        next.error_message = event.error.message;
        break;
      case 'stream.warning':
        next.warning_count += 1;
        if (unknownTypeOf(event) !== null) next.unknown_event_count += 1;
        break;
      case 'block.start':
      case 'block.delta':
      case 'block.stop':
      case 'stream.heartbeat':
        break;
      default:
        return assertNever(event, 'contract event');
    }
  }
  return next;
}

/**
 * Folds a batch's raw records of one stream into its row: `inserted` records were new. What stream.open says
 * and the trace id are taken from every record of the batch (they are the same on a redelivery).
 */
export function applyRaw(row: StreamRow, records: readonly IncomingRaw[], inserted: number, now: number): StreamRow {
  const next: StreamRow = { ...row, raw_count: row.raw_count + inserted, updated_at: now };
  for (const record of records) {
    next.started_at = Math.min(next.started_at, record.ts);
    next.trace_id ??= record.traceId;
    if (record.type === 'prompt') {
      next.prompt ??= record.prompt;
      continue;
    }
    if (record.opened !== undefined) {
      next.provider ??= record.opened.provider;
      next.model ??= record.opened.model;
      next.route ??= record.opened.route ?? null;
      next.gateway_id ??= record.opened.gatewayId;
    }
  }
  return next;
}
