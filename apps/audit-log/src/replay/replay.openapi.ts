import { applyDecorators } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiQuery, type SchemaObject } from '@nestjs/swagger';
import { ERROR_CATEGORIES, PROVIDERS, STREAM_STATUSES } from '@llm-stream/contract';
import { ApiErrorResponses } from '@llm-stream/nest-kit';
import type { UnreplayableReason } from '@llm-stream/adapters';
import type { ApiErrorCode } from '../errors/api-error.js';

// The OpenAPI description of the replay routes (replay-types.ts has the TypeScript side). Each route lists every
// error it can answer: the e2e suite compares the codes with ApiErrorCode and hits every status.

const nullable = (schema: SchemaObject): SchemaObject => ({ ...schema, nullable: true });
const open = (description: string): SchemaObject => ({ type: 'object', description, additionalProperties: true });
const object = (properties: Readonly<Record<string, SchemaObject>>, optional: readonly string[] = []): SchemaObject => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties).filter((name) => !optional.includes(name)),
  properties: { ...properties },
});

const UNREPLAYABLE_REASONS: readonly UnreplayableReason[] = ['running', 'no_raw_trace', 'unreadable_record'];
const REASON: SchemaObject = { type: 'string', enum: [...UNREPLAYABLE_REASONS], description: 'Why the stream has no outcome to compare.' };
const OUTCOME_CHANGE = object(
  {
    field: { type: 'string', enum: ['status', 'stop_reason', 'provider_stop_reason', 'error_category', 'usage', 'blocks', 'tool_arguments'] },
    block: { type: 'integer', description: 'The block index, for `blocks` and `tool_arguments`.' },
    stored: { description: 'The stored value (null when absent).' },
    replayed: { description: 'The replayed value (null when absent).' },
  },
  ['block'],
);
const CHANGES: SchemaObject = { type: 'array', items: OUTCOME_CHANGE };
const OUTCOME = open('An assembled result (the events folded as `llm-stream assemble` folds them).');

const STREAM_REPLAY = object({
  stream_id: { type: 'string' },
  provider: nullable({ type: 'string' }),
  model: nullable({ type: 'string' }),
  stored: OUTCOME,
  replayed: nullable(OUTCOME),
  changes: CHANGES,
  // An enum lists null too for a nullable value (OpenAPI 3.0).
  unreplayable: nullable({ ...REASON, enum: [...UNREPLAYABLE_REASONS, null] }),
  redacted: { type: 'boolean', description: 'A frame was stored redacted: a change may be the redaction\'s.' },
});

const TOTALS = object({ replayed: { type: 'integer' }, changed: { type: 'integer' }, unreplayable: { type: 'integer' } });
const REPLAY_REPORT = object({
  counts: object({ replayed: { type: 'integer' }, unchanged: { type: 'integer' }, changed: { type: 'integer' }, unreplayable: { type: 'integer' } }),
  by_provider: { type: 'object', additionalProperties: TOTALS },
  changed: {
    type: 'array',
    items: object({ stream_id: { type: 'string' }, provider: nullable({ type: 'string' }), model: nullable({ type: 'string' }), redacted: { type: 'boolean' }, changes: CHANGES }),
  },
  unreplayable: { type: 'array', items: object({ stream_id: { type: 'string' }, provider: nullable({ type: 'string' }), reason: REASON }) },
  next_cursor: nullable({ type: 'string' }),
});

const ok = (description: string, schema: SchemaObject): MethodDecorator => ApiOkResponse({ description, content: { 'application/json': { schema } } });

export function StreamReplayDocs(): MethodDecorator {
  return applyDecorators(
    ApiOperation({ summary: "A stream's stored raw trace re-normalized with this build's adapters, against its stored outcome (audit:full)" }),
    ApiParam({ name: 'streamId', schema: { type: 'string' } }),
    ok('The stored and the replayed outcome, and what changed (empty when nothing did).', STREAM_REPLAY),
    ApiErrorResponses<ApiErrorCode>({ 401: ['unauthorized'], 403: ['insufficient_scope'], 404: ['not_found'], 500: ['internal'], 503: ['unavailable'] }),
  );
}

const PAGE_QUERY = [
  ApiQuery({ name: 'status', required: false, description: 'Not `running` (no outcome to compare).', schema: { type: 'string', enum: STREAM_STATUSES.filter((status) => status !== 'running') } }),
  ApiQuery({ name: 'error_category', required: false, schema: { type: 'string', enum: [...ERROR_CATEGORIES] } }),
  ApiQuery({ name: 'provider', required: false, schema: { type: 'string', enum: [...PROVIDERS] } }),
  ApiQuery({ name: 'model', required: false, schema: { type: 'string' } }),
  ApiQuery({ name: 'route', required: false, schema: { type: 'string' } }),
  ApiQuery({ name: 'trace_id', required: false, schema: { type: 'string' } }),
  ApiQuery({ name: 'from', required: false, description: 'Streams started at or after (ms since the epoch).', schema: { type: 'integer' } }),
  ApiQuery({ name: 'to', required: false, description: 'Streams started before (ms since the epoch).', schema: { type: 'integer' } }),
  ApiQuery({ name: 'cursor', required: false, description: 'The `next_cursor` of the previous page.', schema: { type: 'string' } }),
  ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 500 } }),
];
const PAGE_ERRORS = ApiErrorResponses<ApiErrorCode>({ 400: ['invalid_request'], 401: ['unauthorized'], 403: ['insufficient_scope'], 500: ['internal'], 503: ['unavailable'] });

const STORED_TRACE_PAGE = object({
  streams: {
    type: 'array',
    items: object({
      stream_id: { type: 'string' },
      provider: nullable({ type: 'string' }),
      model: nullable({ type: 'string' }),
      status: { type: 'string', enum: [...STREAM_STATUSES] },
      redacted: { type: 'boolean' },
      events: { type: 'array', items: open("A contract event (the contract's JSON Schema, libs/contract/schema).") },
      records: { type: 'array', items: nullable(open('A trace record as the gateway wrote it (null: it cannot be read back).')) },
    }),
  },
  next_cursor: nullable({ type: 'string' }),
});

export function ReplayPageDocs(): MethodDecorator {
  return applyDecorators(
    ApiOperation({ summary: "A page of the tenant's streams replayed with this build's adapters: what changed, totals per provider (audit:full)" }),
    ...PAGE_QUERY,
    ok("The page's counts, totals per provider, changed and unreplayable streams.", REPLAY_REPORT),
    PAGE_ERRORS,
  );
}

export function StoredTracesDocs(): MethodDecorator {
  return applyDecorators(
    ApiOperation({ summary: "A page of the tenant's stored traces (events and raw records), for a replay with the caller's adapters (audit:full)" }),
    ...PAGE_QUERY,
    ok('The stored events and raw trace of each stream of the page.', STORED_TRACE_PAGE),
    PAGE_ERRORS,
  );
}
