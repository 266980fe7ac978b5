import type { EventLink, EventRow, RawRow, SqlParam, SqlScalar, StoreWriter } from '../sql-backend.js';
import { MUTABLE_STREAM_COLUMNS, STREAM_COLUMNS, type StreamRow } from '../stream-record.js';
import { PostgresRunner } from './postgres-runner.js';

type StreamColumn = (typeof STREAM_COLUMNS)[number];

/** PostgreSQL array type of each audit_streams column, for unnest(). */
const STREAM_COLUMN_TYPES: Readonly<Record<StreamColumn, string>> = {
  stream_id: 'text',
  tenant: 'text',
  provider: 'text',
  model: 'text',
  gateway_id: 'text',
  status: 'text',
  error_category: 'text',
  error_provider_code: 'text',
  error_message: 'text',
  stop_reason: 'text',
  provider_stop_reason: 'text',
  input_tokens: 'bigint',
  output_tokens: 'bigint',
  reasoning_tokens: 'bigint',
  cached_input_tokens: 'bigint',
  response_id: 'text',
  provider_model: 'text',
  trace_id: 'text',
  started_at: 'bigint',
  ended_at: 'bigint',
  terminal_seq: 'integer',
  event_count: 'integer',
  raw_count: 'integer',
  warning_count: 'integer',
  unknown_event_count: 'integer',
  chain_seq: 'integer',
  chain_hash: 'text',
  prompt: 'text',
  first_seen_at: 'bigint',
  updated_at: 'bigint',
  route: 'text',
  cache_creation_input_tokens: 'bigint',
  cache_creation_5m_input_tokens: 'bigint',
  cache_creation_1h_input_tokens: 'bigint',
};

/** `unnest($1::text[], $2::bigint[], ...)` over the given columns, numbering from `$1`. */
function unnestOf(types: readonly string[]): string {
  return `unnest(${types.map((type, index) => `$${String(index + 1)}::${type}[]`).join(', ')})`;
}

/** Column-major arrays of `rows`, one per column: the parameters of an unnest(). */
function columnsOf<Row>(rows: readonly Row[], columns: readonly (keyof Row)[]): SqlParam[] {
  return columns.map((column) => rows.map((row) => row[column] as SqlScalar));
}

/** `json_to_recordset($1::json) AS <alias>(column type, ...)` over the given stream columns. */
function streamRecordset(alias: string, columns: readonly StreamColumn[]): string {
  return `json_to_recordset($1::json) AS ${alias}(${columns.map((column) => `${column} ${STREAM_COLUMN_TYPES[column]}`).join(', ')})`;
}

const INSERT_STREAMS_SQL = `
INSERT INTO audit_streams (${STREAM_COLUMNS.join(', ')})
SELECT ${STREAM_COLUMNS.join(', ')} FROM ${streamRecordset('r', STREAM_COLUMNS)}
ON CONFLICT (stream_id) DO NOTHING`;

const LOCK_STREAMS_SQL = 'SELECT * FROM audit_streams WHERE stream_id = ANY($1::text[]) ORDER BY stream_id FOR UPDATE';

const UPDATE_COLUMNS = ['stream_id', ...MUTABLE_STREAM_COLUMNS] as const;
const UPDATE_STREAMS_SQL = `
UPDATE audit_streams AS s SET ${MUTABLE_STREAM_COLUMNS.map((column) => `${column} = u.${column}`).join(', ')}
FROM ${streamRecordset('u', UPDATE_COLUMNS)}
WHERE s.stream_id = u.stream_id`;

/**
 * The inserts (every event, every raw record) and the stream rows take the batch as one JSON array instead
 * of column arrays: JSON.stringify runs natively, where encoding PostgreSQL array literals runs in JavaScript
 * and allocates a string per element (measured: the largest cost of a batch on the client side; a batch of
 * interleaved streams carries a stream row of 30 columns per ten or so events, twice).
 */
const INSERT_EVENTS_SQL = `
INSERT INTO audit_events (stream_id, seq, type, ts, js_time, body, content_hash, prev_hash, chain_hash, unknown_type)
SELECT stream_id, seq, type, ts, js_time, body, content_hash, prev_hash, chain_hash, unknown_type
FROM json_to_recordset($1::json) AS r(stream_id text, seq integer, type text, ts bigint, js_time bigint, body text, content_hash text, prev_hash text, chain_hash text, unknown_type text)
ON CONFLICT DO NOTHING`;

const LINK_COLUMNS = ['stream_id', 'seq', 'prev_hash', 'chain_hash'] as const;
const LINK_EVENTS_SQL = `
UPDATE audit_events AS e SET prev_hash = u.prev_hash, chain_hash = u.chain_hash
FROM ${unnestOf(['text', 'integer', 'text', 'text'])} AS u(${LINK_COLUMNS.join(', ')})
WHERE e.stream_id = u.stream_id AND e.seq = u.seq`;

const INSERT_RAW_SQL = `
INSERT INTO audit_raw (stream_id, attempt, raw_seq, kind, ts, js_seq, body, body_encoding, redacted)
SELECT stream_id, attempt, raw_seq, kind, ts, js_seq, body, body_encoding, redacted
FROM json_to_recordset($1::json) AS r(stream_id text, attempt integer, raw_seq integer, kind text, ts bigint, js_seq bigint, body text, body_encoding text, redacted smallint)
ON CONFLICT DO NOTHING
RETURNING stream_id`;

/**
 * Bulk writes as one statement per batch: the rows travel as one JSON parameter (events, raw records, stream
 * rows) or one array parameter per column (links, rare) that `unnest()` turns back into rows, so a batch of
 * thousands of rows costs one round trip and one parse.
 */
export class PostgresWriter extends PostgresRunner implements StoreWriter {
  async lockStreams(seeds: readonly StreamRow[]): Promise<StreamRow[]> {
    if (seeds.length === 0) return [];
    // Sorted: concurrent writers lock rows in the same order and cannot deadlock on each other.
    const sorted = [...seeds].sort((a, b) => (a.stream_id < b.stream_id ? -1 : a.stream_id > b.stream_id ? 1 : 0));
    // Two statements, so that a stream row that exists is locked without writing a new version of it (an
    // upsert's DO UPDATE would, for every stream of every batch). The insert waits for a concurrent writer's
    // uncommitted insert of the same key (json_to_recordset yields the rows in the sorted order), so every
    // seed exists, committed, when the second statement (a fresh snapshot) locks them in stream_id order
    // (the lock applies after the sort).
    await this.run(INSERT_STREAMS_SQL, [JSON.stringify(sorted)]);
    return this.all<StreamRow>(LOCK_STREAMS_SQL, [sorted.map((row) => row.stream_id)]);
  }

  async insertEvents(rows: readonly EventRow[]): Promise<number> {
    if (rows.length === 0) return 0;
    return this.run(INSERT_EVENTS_SQL, [JSON.stringify(rows)]);
  }

  async linkEvents(links: readonly EventLink[]): Promise<void> {
    if (links.length === 0) return;
    await this.run(LINK_EVENTS_SQL, columnsOf(links, LINK_COLUMNS));
  }

  async insertRaw(rows: readonly RawRow[]): Promise<ReadonlyMap<string, number>> {
    const inserted = new Map<string, number>();
    if (rows.length === 0) return inserted;
    const returned = await this.all<{ stream_id: string }>(INSERT_RAW_SQL, [JSON.stringify(rows)]);
    for (const { stream_id } of returned) inserted.set(stream_id, (inserted.get(stream_id) ?? 0) + 1);
    return inserted;
  }

  async updateStreams(rows: readonly StreamRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.run(UPDATE_STREAMS_SQL, [JSON.stringify(rows)]);
  }
}
