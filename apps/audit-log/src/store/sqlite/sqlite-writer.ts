import type { EventLink, EventRow, RawRow, StoreWriter } from '../sql-backend.js';
import { MUTABLE_STREAM_COLUMNS, STREAM_COLUMNS, type StreamRow } from '../stream-record.js';
import { SqliteRunner } from './sqlite-runner.js';

const placeholders = (count: number): string => Array.from({ length: count }, () => '?').join(', ');

const INSERT_STREAM_SQL = `INSERT INTO audit_streams (${STREAM_COLUMNS.join(', ')}) VALUES (${placeholders(STREAM_COLUMNS.length)}) ON CONFLICT (stream_id) DO NOTHING`;
const SELECT_STREAM_SQL = 'SELECT * FROM audit_streams WHERE stream_id = ?';
const UPDATE_STREAM_SQL = `UPDATE audit_streams SET ${MUTABLE_STREAM_COLUMNS.map((column) => `${column} = ?`).join(', ')} WHERE stream_id = ?`;
const INSERT_EVENT_SQL =
  'INSERT INTO audit_events (stream_id, seq, type, ts, js_time, body, content_hash, prev_hash, chain_hash, unknown_type) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING';
const LINK_EVENT_SQL = 'UPDATE audit_events SET prev_hash = ?, chain_hash = ? WHERE stream_id = ? AND seq = ?';
const INSERT_RAW_SQL =
  'INSERT INTO audit_raw (stream_id, attempt, raw_seq, kind, ts, js_seq, body, body_encoding, redacted) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING';

/**
 * Bulk writes as one prepared statement run per row: inside a transaction SQLite does no I/O per statement,
 * so this is as fast as a multi-row statement without building SQL per batch size. There is one writer
 * connection, so the rows need no lock beyond the transaction itself.
 */
export class SqliteWriter extends SqliteRunner implements StoreWriter {
  lockStreams(seeds: readonly StreamRow[]): Promise<StreamRow[]> {
    const insert = this.statement(INSERT_STREAM_SQL);
    const select = this.statement(SELECT_STREAM_SQL);
    const rows: StreamRow[] = [];
    for (const seed of seeds) {
      insert.run(STREAM_COLUMNS.map((column) => seed[column]));
      rows.push(select.get(seed.stream_id) as StreamRow);
    }
    return Promise.resolve(rows);
  }

  insertEvents(rows: readonly EventRow[]): Promise<number> {
    const insert = this.statement(INSERT_EVENT_SQL);
    let inserted = 0;
    for (const row of rows) {
      inserted += insert.run(row.stream_id, row.seq, row.type, row.ts, row.js_time, row.body, row.content_hash, row.prev_hash, row.chain_hash, row.unknown_type).changes;
    }
    return Promise.resolve(inserted);
  }

  linkEvents(links: readonly EventLink[]): Promise<void> {
    const update = this.statement(LINK_EVENT_SQL);
    for (const link of links) update.run(link.prev_hash, link.chain_hash, link.stream_id, link.seq);
    return Promise.resolve();
  }

  insertRaw(rows: readonly RawRow[]): Promise<ReadonlyMap<string, number>> {
    const insert = this.statement(INSERT_RAW_SQL);
    const inserted = new Map<string, number>();
    for (const row of rows) {
      const { changes } = insert.run(row.stream_id, row.attempt, row.raw_seq, row.kind, row.ts, row.js_seq, row.body, row.body_encoding, row.redacted);
      if (changes > 0) inserted.set(row.stream_id, (inserted.get(row.stream_id) ?? 0) + changes);
    }
    return Promise.resolve(inserted);
  }

  updateStreams(rows: readonly StreamRow[]): Promise<void> {
    const update = this.statement(UPDATE_STREAM_SQL);
    for (const row of rows) update.run(...MUTABLE_STREAM_COLUMNS.map((column) => row[column]), row.stream_id);
    return Promise.resolve();
  }
}
