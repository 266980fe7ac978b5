import { ERROR_CATEGORIES, PROVIDERS, STREAM_STATUSES, err, isValidRouteName, ok, type Result, type StreamStatus } from '@llm-stream/contract';
import type { PageRequest, StreamFilter, TimeRange } from '../store/audit-repository.js';

export interface QueryParamError {
  readonly code: 'invalid_request';
  readonly message: string;
}

type Query = Readonly<Record<string, unknown>>;

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;

const LIST_PARAMS = new Set(['status', 'error_category', 'provider', 'model', 'route', 'trace_id', 'from', 'to', 'cursor', 'limit']);
const STATS_PARAMS = new Set(['from', 'to']);
const TIMELINE_PARAMS = new Set(['from', 'to', 'buckets']);
const DETAIL_PARAMS = new Set(['after_seq']);
const RAW_PARAMS = new Set(['after_js_seq', 'limit']);
/** The most records one page of a raw trace holds (and its size when `after_js_seq` is given without `limit`). */
export const MAX_RAW_PAGE = 5_000;
export const DEFAULT_TIMELINE_BUCKETS = 60;
export const MAX_TIMELINE_BUCKETS = 500;

const fail = (message: string): { readonly ok: false; readonly error: QueryParamError } => err({ code: 'invalid_request', message });

/** `GET /v1/streams?status=&error_category=&provider=&model=&route=&trace_id=&from=&to=&cursor=&limit=` */
export function parseListQuery(query: Query): Result<{ filter: StreamFilter; page: PageRequest }, QueryParamError> {
  const unknown = unknownParam(query, LIST_PARAMS);
  if (unknown !== undefined) return fail(`unknown query parameter ${JSON.stringify(unknown)}`);
  const range = parseRange(query);
  if (!range.ok) return range;
  const filter: { -readonly [K in keyof StreamFilter]: StreamFilter[K] } = { ...range.value };
  const status = single(query, 'status');
  if (status !== undefined) {
    if (!(STREAM_STATUSES as readonly string[]).includes(status)) return fail(`status must be one of ${STREAM_STATUSES.join(', ')}`);
    filter.status = status as StreamStatus;
  }
  const category = single(query, 'error_category');
  if (category !== undefined) {
    if (!(ERROR_CATEGORIES as readonly string[]).includes(category)) return fail(`error_category must be one of ${ERROR_CATEGORIES.join(', ')}`);
    filter.errorCategory = category;
  }
  const provider = single(query, 'provider');
  if (provider !== undefined) {
    if (!(PROVIDERS as readonly string[]).includes(provider)) return fail(`provider must be one of ${PROVIDERS.join(', ')}`);
    filter.provider = provider;
  }
  const model = single(query, 'model');
  if (model !== undefined) {
    if (model.length === 0 || model.length > 256) return fail('model must be 1 to 256 characters');
    filter.model = model;
  }
  const route = single(query, 'route');
  if (route !== undefined) {
    if (!isValidRouteName(route)) return fail('route must be a route name ([a-z0-9][a-z0-9_-]{0,63})');
    filter.route = route;
  }
  const traceId = single(query, 'trace_id');
  if (traceId !== undefined) {
    if (!/^[\da-f]{32}$/.test(traceId)) return fail('trace_id must be 32 lowercase hex digits');
    filter.traceId = traceId;
  }
  const limitParam = integer(query, 'limit', 1, MAX_PAGE_SIZE);
  if (!limitParam.ok) return limitParam;
  const limit = limitParam.value ?? DEFAULT_PAGE_SIZE;
  const cursorText = single(query, 'cursor');
  if (cursorText === undefined) return ok({ filter, page: { limit } });
  const after = decodeCursor(cursorText);
  if (after === undefined) return fail('cursor is not a cursor this API returned');
  return ok({ filter, page: { limit, after } });
}

/** `GET /v1/stats?from=&to=` */
export function parseStatsQuery(query: Query): Result<TimeRange, QueryParamError> {
  const unknown = unknownParam(query, STATS_PARAMS);
  if (unknown !== undefined) return fail(`unknown query parameter ${JSON.stringify(unknown)}`);
  return parseRange(query);
}

/** `GET /v1/stats/timeline?from=&to=&buckets=`: both ends required (the chart's axis), the range cut into equal buckets. */
export function parseTimelineQuery(query: Query): Result<{ from: number; to: number; bucketMs: number }, QueryParamError> {
  const unknown = unknownParam(query, TIMELINE_PARAMS);
  if (unknown !== undefined) return fail(`unknown query parameter ${JSON.stringify(unknown)}`);
  const range = parseRange(query);
  if (!range.ok) return range;
  const { from, to } = range.value;
  if (from === undefined || to === undefined || from >= to) return fail('from and to are both required, from before to');
  const buckets = integer(query, 'buckets', 1, MAX_TIMELINE_BUCKETS);
  if (!buckets.ok) return buckets;
  return ok({ from, to, bucketMs: Math.ceil((to - from) / (buckets.value ?? DEFAULT_TIMELINE_BUCKETS)) });
}

/** An opaque cursor: the position (start time, stream id) of the last stream of a page. */
export function encodeCursor(position: { readonly startedAt: number; readonly streamId: string }): string {
  return Buffer.from(JSON.stringify([position.startedAt, position.streamId]), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): { startedAt: number; streamId: string } | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 2) return undefined;
    const [startedAt, streamId] = value as unknown[];
    if (typeof startedAt !== 'number' || !Number.isSafeInteger(startedAt) || typeof streamId !== 'string') return undefined;
    return { startedAt, streamId };
  } catch {
    return undefined;
  }
}

/** `GET /v1/streams/{id}?after_seq=`: only the events after that seq (a live view's next poll). */
export function parseDetailQuery(query: Query): Result<{ afterSeq?: number }, QueryParamError> {
  const unknown = unknownParam(query, DETAIL_PARAMS);
  if (unknown !== undefined) return fail(`unknown query parameter ${JSON.stringify(unknown)}`);
  const afterSeq = integer(query, 'after_seq', 0);
  if (!afterSeq.ok) return afterSeq;
  return ok(afterSeq.value === undefined ? {} : { afterSeq: afterSeq.value });
}

/**
 * `GET /v1/streams/{id}/raw?after_js_seq=&limit=`: either parameter asks for a page (LLM_RAW order, starting
 * after that JetStream sequence, at most `limit` records); without them the read is the whole trace.
 */
export function parseRawQuery(query: Query): Result<{ page?: { afterJsSeq: number; limit: number } }, QueryParamError> {
  const unknown = unknownParam(query, RAW_PARAMS);
  if (unknown !== undefined) return fail(`unknown query parameter ${JSON.stringify(unknown)}`);
  const afterJsSeq = integer(query, 'after_js_seq', 0);
  if (!afterJsSeq.ok) return afterJsSeq;
  const limit = integer(query, 'limit', 1, MAX_RAW_PAGE);
  if (!limit.ok) return limit;
  if (afterJsSeq.value === undefined && limit.value === undefined) return ok({});
  return ok({ page: { afterJsSeq: afterJsSeq.value ?? 0, limit: limit.value ?? MAX_RAW_PAGE } });
}

/** An optional integer parameter, in decimal, from `min` to `max` (undefined when it is not given). */
function integer(query: Query, name: string, min: number, max?: number): Result<number | undefined, QueryParamError> {
  const text = single(query, name);
  if (text === undefined) return ok(undefined);
  const value = /^\d{1,15}$/.test(text) ? Number(text) : Number.NaN;
  if (value >= min && (max === undefined || value <= max)) return ok(value);
  return fail(max === undefined ? `${name} must be an integer of at least ${String(min)}` : `${name} must be an integer from ${String(min)} to ${String(max)}`);
}

/** `from` (inclusive) and `to` (exclusive): milliseconds since the epoch, or an ISO 8601 date-time. */
function parseRange(query: Query): Result<TimeRange, QueryParamError> {
  const range: { from?: number; to?: number } = {};
  for (const name of ['from', 'to'] as const) {
    const text = single(query, name);
    if (text === undefined) continue;
    const time = parseTime(text);
    if (time === undefined) return fail(`${name} must be milliseconds since the epoch or an ISO 8601 date-time`);
    range[name] = time;
  }
  if (range.from !== undefined && range.to !== undefined && range.from > range.to) return fail('from must not be after to');
  return ok(range);
}

function parseTime(text: string): number | undefined {
  if (/^\d{1,15}$/.test(text)) return Number(text);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text)) return undefined;
  const parsed = Date.parse(text);
  return Number.isNaN(parsed) ? undefined : parsed;
}

/** A parameter's value: a repeated or empty parameter counts as given once (its last value) or not at all. */
function single(query: Query, name: string): string | undefined {
  const value = query[name];
  const last: unknown = Array.isArray(value) ? value.at(-1) : value;
  return typeof last === 'string' && last !== '' ? last : undefined;
}

function unknownParam(query: Query, known: ReadonlySet<string>): string | undefined {
  return Object.keys(query).find((name) => !known.has(name));
}
