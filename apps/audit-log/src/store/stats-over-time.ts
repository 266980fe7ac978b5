import type { StatsBucket, UnknownEventGroup } from '@llm-stream/contract';
import type { TimeRange } from './audit-repository.js';
import { UNKNOWN_EVENT_STREAM_IDS } from './audit-repository.js';
import type { Query } from './stream-queries.js';

/**
 * Stream counts by (bucket, status, error category). The bucket number is computed in SQL so that the database
 * returns one row per bucket and group, never a row per stream; CAST makes it an integer on SQLite too (where
 * bound numbers may be REAL). It walks the time index (tenant, started_at, ..., status, error_category).
 */
export function timelineQuery(tenant: string, range: { readonly from: number; readonly to: number }, bucketMs: number): Query {
  return {
    sql: `SELECT CAST((started_at - $2) / $4 AS INTEGER) AS bucket, status, error_category, COUNT(*) AS streams
FROM audit_streams WHERE tenant = $1 AND started_at >= $2 AND started_at < $3
GROUP BY 1, 2, 3`,
    params: [tenant, range.from, range.to, bucketMs],
  };
}

interface TimelineRow {
  readonly bucket: number;
  readonly status: string;
  readonly error_category: string | null;
  readonly streams: number;
}

/** Every bucket of the range in order, the empty ones too (a chart's x axis). Pure. */
export function timelineBuckets(rows: readonly TimelineRow[], range: { readonly from: number; readonly to: number }, bucketMs: number): StatsBucket[] {
  const count = Math.ceil((range.to - range.from) / bucketMs);
  const buckets: { start: number; streams: number; by_status: Record<string, number>; by_error_category: Record<string, number> }[] = Array.from(
    { length: count },
    (_unused, index) => ({ start: range.from + index * bucketMs, streams: 0, by_status: {}, by_error_category: {} }),
  );
  for (const row of rows) {
    const bucket = buckets[row.bucket];
    if (bucket === undefined) continue;
    const { streams } = row;
    bucket.streams += streams;
    bucket.by_status[row.status] = (bucket.by_status[row.status] ?? 0) + streams;
    if (row.error_category !== null) bucket.by_error_category[row.error_category] = (bucket.by_error_category[row.error_category] ?? 0) + streams;
  }
  return buckets;
}

/** The (provider, type, stream) triples of unknown-event warnings, newest stream first. */
export function unknownEventsQuery(tenant: string, range: TimeRange): Query {
  const params: (string | number)[] = [tenant];
  const conditions = ['e.unknown_type IS NOT NULL', 's.tenant = $1'];
  if (range.from !== undefined) conditions.push(`s.started_at >= $${String(params.push(range.from))}`);
  if (range.to !== undefined) conditions.push(`s.started_at < $${String(params.push(range.to))}`);
  return {
    sql: `SELECT s.provider AS provider, e.unknown_type AS unknown_type, e.stream_id AS stream_id
FROM audit_events e JOIN audit_streams s ON s.stream_id = e.stream_id
WHERE ${conditions.join(' AND ')}
GROUP BY s.provider, e.unknown_type, e.stream_id, s.started_at
ORDER BY s.started_at DESC, e.stream_id DESC`,
    params,
  };
}

/** Groups the triples by provider and type, most streams first, each with its newest stream ids. Pure. */
export function unknownEventGroups(rows: readonly { readonly provider: string | null; readonly unknown_type: string; readonly stream_id: string }[]): UnknownEventGroup[] {
  const groups = new Map<string, { provider: string; type: string; streams: number; stream_ids: string[] }>();
  for (const row of rows) {
    const provider = row.provider ?? 'unknown';
    const key = JSON.stringify([provider, row.unknown_type]);
    const group = groups.get(key) ?? { provider, type: row.unknown_type, streams: 0, stream_ids: [] };
    group.streams += 1;
    if (group.stream_ids.length < UNKNOWN_EVENT_STREAM_IDS) group.stream_ids.push(row.stream_id);
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => b.streams - a.streams || a.provider.localeCompare(b.provider) || a.type.localeCompare(b.type));
}
