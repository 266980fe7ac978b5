import type { PageRequest, StreamFilter, TimeRange } from './audit-repository.js';
import type { SqlParam } from './sql-backend.js';
import { RECORD_COLUMNS } from './stream-record.js';

/** SQL and parameters, with `$n` placeholders. */
export interface Query {
  readonly sql: string;
  readonly params: readonly SqlParam[];
}

/** The listing columns: the record's, and whether a prompt is stored (never the prompt itself). */
export const RECORD_SELECT = `${RECORD_COLUMNS.join(', ')}, (prompt IS NOT NULL) AS prompt_captured`;

/** Collects WHERE conditions with numbered parameters. */
class Conditions {
  readonly params: SqlParam[] = [];
  readonly parts: string[] = [];

  /** `$n` for a new parameter. */
  param(value: SqlParam): string {
    this.params.push(value);
    return `$${String(this.params.length)}`;
  }

  add(condition: string): void {
    this.parts.push(condition);
  }

  get where(): string {
    return this.parts.join(' AND ');
  }
}

function timeConditions(conditions: Conditions, range: TimeRange, column: string): void {
  if (range.from !== undefined) conditions.add(`${column} >= ${conditions.param(range.from)}`);
  if (range.to !== undefined) conditions.add(`${column} < ${conditions.param(range.to)}`);
}

/**
 * One page of a tenant's streams, newest first (started_at, then stream_id, both descending). Each filter is
 * an equality on the leading columns of one of the listing indexes, so the database walks one index in order
 * and stops after `limit + 1` rows (the extra row says whether there is a next page). The cursor condition is
 * written with a plain bound on started_at so that both planners use it as an index bound.
 */
export function listStreamsQuery(tenant: string, filter: StreamFilter, page: PageRequest): Query {
  const conditions = new Conditions();
  conditions.add(`tenant = ${conditions.param(tenant)}`);
  if (filter.status !== undefined) conditions.add(`status = ${conditions.param(filter.status)}`);
  if (filter.errorCategory !== undefined) conditions.add(`error_category = ${conditions.param(filter.errorCategory)}`);
  if (filter.provider !== undefined) conditions.add(`provider = ${conditions.param(filter.provider)}`);
  if (filter.model !== undefined) conditions.add(`model = ${conditions.param(filter.model)}`);
  if (filter.route !== undefined) conditions.add(`route = ${conditions.param(filter.route)}`);
  if (filter.traceId !== undefined) conditions.add(`trace_id = ${conditions.param(filter.traceId)}`);
  timeConditions(conditions, filter, 'started_at');
  if (page.after !== undefined) {
    const startedAt = conditions.param(page.after.startedAt);
    const streamId = conditions.param(page.after.streamId);
    conditions.add(`started_at <= ${startedAt} AND (started_at < ${startedAt} OR stream_id < ${streamId})`);
  }
  const limit = conditions.param(page.limit + 1);
  return {
    sql: `SELECT ${RECORD_SELECT} FROM audit_streams WHERE ${conditions.where} ORDER BY started_at DESC, stream_id DESC LIMIT ${limit}`,
    params: conditions.params,
  };
}

/** Stream counts by (status, error category, provider) and their unknown-event warnings, in a time range. */
export function statsQuery(tenant: string, range: TimeRange): Query {
  const conditions = new Conditions();
  conditions.add(`tenant = ${conditions.param(tenant)}`);
  timeConditions(conditions, range, 'started_at');
  return {
    sql: `SELECT status, error_category, provider, COUNT(*) AS streams, SUM(unknown_event_count) AS unknown_events
FROM audit_streams WHERE ${conditions.where} GROUP BY status, error_category, provider`,
    params: conditions.params,
  };
}

/** Unknown-event warnings by provider event type, for the streams of a time range. */
export function unknownTypesQuery(tenant: string, range: TimeRange): Query {
  const conditions = new Conditions();
  conditions.add('e.unknown_type IS NOT NULL');
  conditions.add(`s.tenant = ${conditions.param(tenant)}`);
  timeConditions(conditions, range, 's.started_at');
  return {
    sql: `SELECT e.unknown_type AS unknown_type, COUNT(*) AS warnings
FROM audit_events e JOIN audit_streams s ON s.stream_id = e.stream_id
WHERE ${conditions.where} GROUP BY e.unknown_type`,
    params: conditions.params,
  };
}
