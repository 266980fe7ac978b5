import { applyDecorators } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiQuery, type SchemaObject } from '@nestjs/swagger';
import { ERROR_CATEGORIES, PROVIDERS, STREAM_STATUSES } from '@llm-stream/contract';
import { ApiErrorResponses } from '@llm-stream/nest-kit';
import type { ApiErrorCode } from '../errors/api-error.js';
import { MAX_RAW_PAGE } from './query-params.js';

// The OpenAPI description of the query routes, beside the controllers so that they only delegate. Each route
// lists every error it can answer: the e2e suite compares the codes with ApiErrorCode and hits every status.

const nullable = (schema: SchemaObject): SchemaObject => ({ ...schema, nullable: true });
const counts: SchemaObject = { type: 'object', additionalProperties: { type: 'integer' } };
const open = (description: string): SchemaObject => ({ type: 'object', description, additionalProperties: true });
const EVENTS: SchemaObject = { type: 'array', items: open("A contract event (the contract's JSON Schema, libs/contract/schema).") };

const STREAM_RECORD: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['stream_id', 'tenant', 'status', 'started_at', 'event_count', 'raw_count', 'warning_count', 'unknown_event_count', 'prompt_captured'],
  properties: {
    stream_id: { type: 'string' },
    tenant: { type: 'string' },
    provider: nullable({ type: 'string' }),
    model: nullable({ type: 'string' }),
    route: nullable({ type: 'string' }),
    gateway_id: nullable({ type: 'string' }),
    status: { type: 'string', enum: [...STREAM_STATUSES] },
    error_category: nullable({ type: 'string' }),
    error_provider_code: nullable({ type: 'string' }),
    error_message: nullable({ type: 'string' }),
    stop_reason: nullable({ type: 'string' }),
    provider_stop_reason: nullable({ type: 'string' }),
    usage: nullable(open('Token usage as the contract reports it.')),
    response_id: nullable({ type: 'string' }),
    provider_model: nullable({ type: 'string' }),
    trace_id: nullable({ type: 'string' }),
    started_at: { type: 'integer', description: 'ms since the epoch' },
    ended_at: nullable({ type: 'integer' }),
    terminal_seq: nullable({ type: 'integer' }),
    event_count: { type: 'integer' },
    raw_count: { type: 'integer' },
    warning_count: { type: 'integer' },
    unknown_event_count: { type: 'integer' },
    prompt_captured: { type: 'boolean' },
  },
};

function object(properties: Readonly<Record<string, SchemaObject>>, optional: readonly string[] = []): SchemaObject {
  return { type: 'object', additionalProperties: false, required: Object.keys(properties).filter((name) => !optional.includes(name)), properties: { ...properties } };
}

const STREAM_LIST = object({ streams: { type: 'array', items: STREAM_RECORD }, next_cursor: nullable({ type: 'string' }) });

const STREAM_DETAIL = object(
  {
    stream: STREAM_RECORD,
    result: open('The events folded as `llm-stream assemble` folds them.'),
    draft: { type: 'boolean' },
    tool_calls: { type: 'array', items: open('An assembled tool_call block.') },
    events: EVENTS,
    event_times: {
      type: 'array',
      description: "When each event was stored: JetStream's message time (null before the audit log kept it) beside the event's ts.",
      items: object({ seq: { type: 'integer' }, ts: { type: 'integer' }, js_time: nullable({ type: 'integer' }) }),
    },
    prompt: { description: "The client's request, only for tenants with prompt capture on." },
    events_after_seq: { type: 'integer', description: 'Set when the read asked for `after_seq`: `events` and `event_times` hold only the events after it.' },
  },
  ['prompt', 'events_after_seq'],
);

const RAW_TRACE_ENTRY = object(
  {
    raw_seq: { type: 'integer' },
    attempt: nullable({ type: 'integer' }),
    kind: { type: 'string' },
    ts: { type: 'integer' },
    redacted: { type: 'boolean' },
    text: { type: 'string' },
    record: open("A trace record's fields."),
    withheld: object({ raw_seq: { type: 'integer' }, bytes: { type: 'integer' } }),
    events: EVENTS,
  },
  ['text', 'record', 'withheld'],
);

const RAW_TRACE = object(
  {
    stream_id: { type: 'string' },
    records: { type: 'array', items: RAW_TRACE_ENTRY },
    replay: {
      ...object({ events: { type: 'integer' }, matches_stored: { type: 'boolean' }, first_difference_seq: nullable({ type: 'integer' }) }),
      description: 'The replay of the whole stored trace against the stored events; absent on a page.',
    },
    page: {
      ...object({ after_js_seq: { type: 'integer' }, last_js_seq: { type: 'integer' }, more: { type: 'boolean' } }),
      description: 'Set on a page: the next page is `after_js_seq=last_js_seq`; `more` says whether stored records were left past this one.',
    },
  },
  ['replay', 'page'],
);

const VERIFY_REPORT = object({
  stream_id: { type: 'string' },
  ok: { type: 'boolean' },
  invariants: object({ ok: { type: 'boolean' }, partial: { type: 'boolean' }, violations: { type: 'array', items: open('An invariant violation.') } }),
  chain: object({
    ok: { type: 'boolean' },
    events: { type: 'integer' },
    verified: { type: 'integer' },
    head: object({ seq: { type: 'integer' }, hash: { type: 'string' } }),
    first_broken: nullable(object({ seq: { type: 'integer' }, reason: { type: 'string' }, message: { type: 'string' } })),
  }),
});

const STATS = object({
  from: nullable({ type: 'integer' }),
  to: nullable({ type: 'integer' }),
  streams: { type: 'integer' },
  by_status: counts,
  by_error_category: counts,
  by_provider: counts,
  unknown_events: object({ total: { type: 'integer' }, by_provider: counts, by_type: counts }),
});

const STATS_TIMELINE = object({
  from: { type: 'integer' },
  to: { type: 'integer' },
  bucket_ms: { type: 'integer' },
  buckets: { type: 'array', items: object({ start: { type: 'integer' }, streams: { type: 'integer' }, by_status: counts, by_error_category: counts }) },
});

const UNKNOWN_EVENTS = object({
  from: nullable({ type: 'integer' }),
  to: nullable({ type: 'integer' }),
  groups: {
    type: 'array',
    items: object({
      provider: { type: 'string' },
      type: { type: 'string', description: 'The provider event (or part) type.' },
      streams: { type: 'integer' },
      stream_ids: { type: 'array', items: { type: 'string' }, description: 'The newest streams that had it (at most 20).' },
    }),
  },
});

/** The readiness detail of the audit log: each consumer's lag, or why it could not be measured. */
export const INGESTION_LAG_SCHEMA: SchemaObject = {
  type: 'object',
  additionalProperties: {
    oneOf: [
      object({ undelivered: { type: 'integer' }, unacked: { type: 'integer' }, oldest_age_ms: { type: 'integer' }, retention_ms: nullable({ type: 'integer' }), measured_at: { type: 'integer' } }),
      object({ unknown: { type: 'string' } }),
    ],
  },
};

const STREAM_ID = ApiParam({ name: 'streamId', schema: { type: 'string' } });
const TIME_RANGE = [
  ApiQuery({ name: 'from', required: false, description: 'Streams started at or after (ms since the epoch).', schema: { type: 'integer' } }),
  ApiQuery({ name: 'to', required: false, description: 'Streams started before (ms since the epoch).', schema: { type: 'integer' } }),
];
const ok = (description: string, schema: SchemaObject): MethodDecorator => ApiOkResponse({ description, content: { 'application/json': { schema } } });
const ONE_STREAM_ERRORS = ApiErrorResponses<ApiErrorCode>({ 401: ['unauthorized'], 403: ['insufficient_scope'], 404: ['not_found'], 500: ['internal'], 503: ['unavailable'] });
const ONE_STREAM_QUERY_ERRORS = ApiErrorResponses<ApiErrorCode>({ 400: ['invalid_request'], 401: ['unauthorized'], 403: ['insufficient_scope'], 404: ['not_found'], 500: ['internal'], 503: ['unavailable'] });
const QUERY_ERRORS = ApiErrorResponses<ApiErrorCode>({ 400: ['invalid_request'], 401: ['unauthorized'], 403: ['insufficient_scope'], 500: ['internal'], 503: ['unavailable'] });

export function ListStreamsDocs(): MethodDecorator {
  return applyDecorators(
    ApiOperation({ summary: "The tenant's streams, newest first, a page at a time" }),
    ApiQuery({ name: 'status', required: false, schema: { type: 'string', enum: [...STREAM_STATUSES] } }),
    ApiQuery({ name: 'error_category', required: false, schema: { type: 'string', enum: [...ERROR_CATEGORIES] } }),
    ApiQuery({ name: 'provider', required: false, schema: { type: 'string', enum: [...PROVIDERS] } }),
    ApiQuery({ name: 'model', required: false, schema: { type: 'string' } }),
    ApiQuery({ name: 'route', required: false, schema: { type: 'string' } }),
    ApiQuery({ name: 'trace_id', required: false, schema: { type: 'string' } }),
    ...TIME_RANGE,
    ApiQuery({ name: 'cursor', required: false, description: 'The `next_cursor` of the previous page.', schema: { type: 'string' } }),
    ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1 } }),
    ok('A page of stream records.', STREAM_LIST),
    QUERY_ERRORS,
  );
}

export function StreamDetailDocs(): MethodDecorator {
  return applyDecorators(
    ApiOperation({ summary: 'A stream: its record, its events and their assembled result' }),
    STREAM_ID,
    ApiQuery({ name: 'after_seq', required: false, description: 'Only the events after this seq (a live view polls with the last seq it holds).', schema: { type: 'integer', minimum: 0 } }),
    ok('The stream.', STREAM_DETAIL),
    ONE_STREAM_QUERY_ERRORS,
  );
}

export function RawTraceDocs(): MethodDecorator {
  return applyDecorators(
    ApiOperation({ summary: "A stream's raw provider trace, replayed against its stored events, whole or a page at a time" }),
    STREAM_ID,
    ApiQuery({ name: 'after_js_seq', required: false, description: 'A page: the records stored after this JetStream sequence of LLM_RAW (0: from the start).', schema: { type: 'integer', minimum: 0 } }),
    ApiQuery({ name: 'limit', required: false, description: `A page of at most this many records (default and most: ${String(MAX_RAW_PAGE)}).`, schema: { type: 'integer', minimum: 1, maximum: MAX_RAW_PAGE } }),
    ok('The raw trace, or a page of it.', RAW_TRACE),
    ONE_STREAM_QUERY_ERRORS,
  );
}

export function VerifyStreamDocs(): MethodDecorator {
  return applyDecorators(ApiOperation({ summary: "Checks a stream's invariants and its hash chain" }), STREAM_ID, ok('The report.', VERIFY_REPORT), ONE_STREAM_ERRORS);
}

export function StatsDocs(): MethodDecorator {
  return applyDecorators(ApiOperation({ summary: "The tenant's stream counts by terminal state, error category, provider, unknown events" }), ...TIME_RANGE, ok('The counts.', STATS), QUERY_ERRORS);
}

export function StatsTimelineDocs(): MethodDecorator {
  return applyDecorators(
    ApiOperation({ summary: "The tenant's stream counts by terminal state and error category over time, in equal buckets" }),
    ApiQuery({ name: 'from', required: true, description: 'Start of the first bucket (ms since the epoch or ISO 8601).', schema: { type: 'integer' } }),
    ApiQuery({ name: 'to', required: true, description: 'End of the range, exclusive.', schema: { type: 'integer' } }),
    ApiQuery({ name: 'buckets', required: false, description: 'How many buckets (default 60).', schema: { type: 'integer', minimum: 1, maximum: 500 } }),
    ok('Every bucket of the range, empty ones too.', STATS_TIMELINE),
    QUERY_ERRORS,
  );
}

export function UnknownEventsDocs(): MethodDecorator {
  return applyDecorators(
    ApiOperation({ summary: 'Unknown provider events by provider and type, with the streams that had them' }),
    ...TIME_RANGE,
    ok('The groups, most streams first.', UNKNOWN_EVENTS),
    QUERY_ERRORS,
  );
}
