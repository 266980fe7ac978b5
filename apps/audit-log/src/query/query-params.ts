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
  const limitText = single(query, 'limit');
  let limit = DEFAULT_PAGE_SIZE;
  if (limitText !== undefined) {
    limit = /^\d{1,4}$/.test(limitText) ? Number(limitText) : 0;
    if (limit < 1 || limit > MAX_PAGE_SIZE) return fail(`limit must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  }
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
  const bucketsText = single(query, 'buckets');
  const buckets = bucketsText === undefined ? DEFAULT_TIMELINE_BUCKETS : /^\d{1,4}$/.test(bucketsText) ? Number(bucketsText) : 0;
  if (buckets < 1 || buckets > MAX_TIMELINE_BUCKETS) return fail(`buckets must be an integer from 1 to ${String(MAX_TIMELINE_BUCKETS)}`);
  return ok({ from, to, bucketMs: Math.ceil((to - from) / buckets) });
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
  const afterSeq = count(query, 'after_seq', 0);
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
  const afterJsSeq = count(query, 'after_js_seq', 0);
  if (!afterJsSeq.ok) return afterJsSeq;
  const limit = count(query, 'limit', 1);
  if (!limit.ok) return limit;
  if (limit.value !== undefined && limit.value > MAX_RAW_PAGE) return fail(`limit must be at most ${String(MAX_RAW_PAGE)}`);
  if (afterJsSeq.value === undefined && limit.value === undefined) return ok({});
  return ok({ page: { afterJsSeq: afterJsSeq.value ?? 0, limit: limit.value ?? MAX_RAW_PAGE } });
}

/** An optional whole number of at least `min`, given in decimal. */
function count(query: Query, name: string, min: number): Result<number | undefined, QueryParamError> {
  const text = single(query, name);
  if (text === undefined) return ok(undefined);
  const value = /^\d{1,15}$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= min)) return fail(`${name} must be a whole number of at least ${String(min)}`);
  return ok(value);
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
