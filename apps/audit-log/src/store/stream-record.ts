import type { CacheCreationUsage, StreamRecord, StreamStatus, Usage } from '@llm-stream/contract';
import { CHAIN_GENESIS } from '../chain/hash-chain.js';

/** The `audit_streams` row: the record plus the chain head and bookkeeping. Column names = property names. */
export interface StreamRow {
  stream_id: string;
  tenant: string;
  provider: string | null;
  model: string | null;
  gateway_id: string | null;
  status: StreamStatus;
  error_category: string | null;
  error_provider_code: string | null;
  error_message: string | null;
  stop_reason: string | null;
  provider_stop_reason: string | null;
  input_tokens: number | null;
  output_tokens: number | null;
  reasoning_tokens: number | null;
  cached_input_tokens: number | null;
  response_id: string | null;
  provider_model: string | null;
  trace_id: string | null;
  started_at: number;
  ended_at: number | null;
  terminal_seq: number | null;
  event_count: number;
  raw_count: number;
  warning_count: number;
  unknown_event_count: number;
  chain_seq: number;
  chain_hash: string;
  prompt: string | null;
  first_seen_at: number;
  updated_at: number;
  route: string | null;
  cache_creation_input_tokens: number | null;
  /** `usage.cache_creation`: the cache writes per lifetime. */
  cache_creation_5m_input_tokens: number | null;
  cache_creation_1h_input_tokens: number | null;
}

/** Every column of `audit_streams`, in table order. */
export const STREAM_COLUMNS = [
  'stream_id',
  'tenant',
  'provider',
  'model',
  'gateway_id',
  'status',
  'error_category',
  'error_provider_code',
  'error_message',
  'stop_reason',
  'provider_stop_reason',
  'input_tokens',
  'output_tokens',
  'reasoning_tokens',
  'cached_input_tokens',
  'response_id',
  'provider_model',
  'trace_id',
  'started_at',
  'ended_at',
  'terminal_seq',
  'event_count',
  'raw_count',
  'warning_count',
  'unknown_event_count',
  'chain_seq',
  'chain_hash',
  'prompt',
  'first_seen_at',
  'updated_at',
  'route',
  'cache_creation_input_tokens',
  'cache_creation_5m_input_tokens',
  'cache_creation_1h_input_tokens',
] as const satisfies readonly (keyof StreamRow)[];

/** The columns a batch may change (all but the key and the tenant). */
export const MUTABLE_STREAM_COLUMNS = STREAM_COLUMNS.filter(
  (column): column is Exclude<(typeof STREAM_COLUMNS)[number], 'stream_id' | 'tenant'> => column !== 'stream_id' && column !== 'tenant',
);

/** The columns the listing shows (everything but the chain head, the prompt and bookkeeping). */
export const RECORD_COLUMNS = STREAM_COLUMNS.filter(
  (column) => column !== 'chain_seq' && column !== 'chain_hash' && column !== 'prompt' && column !== 'first_seen_at' && column !== 'updated_at',
);

/** A row of the listing query: the record columns plus whether a prompt is stored. */
export type RecordRow = Omit<StreamRow, 'chain_seq' | 'chain_hash' | 'prompt' | 'first_seen_at' | 'updated_at'> & {
  prompt_captured: number | boolean;
};

export function toStreamRecord(row: RecordRow): StreamRecord {
  return {
    stream_id: row.stream_id,
    tenant: row.tenant,
    provider: row.provider,
    model: row.model,
    route: row.route,
    gateway_id: row.gateway_id,
    status: row.status,
    error_category: row.error_category,
    error_provider_code: row.error_provider_code,
    error_message: row.error_message,
    stop_reason: row.stop_reason,
    provider_stop_reason: row.provider_stop_reason,
    usage: usageOf(row),
    response_id: row.response_id,
    provider_model: row.provider_model,
    trace_id: row.trace_id,
    started_at: row.started_at,
    ended_at: row.ended_at,
    terminal_seq: row.terminal_seq,
    event_count: row.event_count,
    raw_count: row.raw_count,
    warning_count: row.warning_count,
    unknown_event_count: row.unknown_event_count,
    prompt_captured: row.prompt_captured === true || row.prompt_captured === 1,
  };
}

function usageOf(row: RecordRow): Usage | null {
  if (row.input_tokens === null || row.output_tokens === null) return null;
  return {
    input_tokens: row.input_tokens,
    output_tokens: row.output_tokens,
    ...(row.reasoning_tokens !== null && { reasoning_tokens: row.reasoning_tokens }),
    ...(row.cached_input_tokens !== null && { cached_input_tokens: row.cached_input_tokens }),
    ...(row.cache_creation_input_tokens !== null && { cache_creation_input_tokens: row.cache_creation_input_tokens }),
    ...cacheCreationOf(row),
  };
}

/** `usage.cache_creation` from its two columns: absent when both are NULL, each count as stored (zeros kept). */
function cacheCreationOf(row: RecordRow): { cache_creation?: CacheCreationUsage } {
  const { cache_creation_5m_input_tokens: fiveMinutes, cache_creation_1h_input_tokens: oneHour } = row;
  if (fiveMinutes === null && oneHour === null) return {};
  return {
    cache_creation: {
      ...(fiveMinutes !== null && { ephemeral_5m_input_tokens: fiveMinutes }),
      ...(oneHour !== null && { ephemeral_1h_input_tokens: oneHour }),
    },
  };
}

/** A new row for a stream first seen in a batch (tenant from the subject, start time from the message). */
export function newStreamRow(streamId: string, tenant: string, startedAt: number, now: number): StreamRow {
  return {
    stream_id: streamId,
    tenant,
    provider: null,
    model: null,
    gateway_id: null,
    status: 'running',
    error_category: null,
    error_provider_code: null,
    error_message: null,
    stop_reason: null,
    provider_stop_reason: null,
    input_tokens: null,
    output_tokens: null,
    reasoning_tokens: null,
    cached_input_tokens: null,
    response_id: null,
    provider_model: null,
    trace_id: null,
    started_at: startedAt,
    ended_at: null,
    terminal_seq: null,
    event_count: 0,
    raw_count: 0,
    warning_count: 0,
    unknown_event_count: 0,
    chain_seq: 0,
    chain_hash: CHAIN_GENESIS,
    prompt: null,
    first_seen_at: now,
    updated_at: now,
    route: null,
    cache_creation_input_tokens: null,
    cache_creation_5m_input_tokens: null,
    cache_creation_1h_input_tokens: null,
  };
}
