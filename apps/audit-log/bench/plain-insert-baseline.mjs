// The baseline bench-audit measures the audit log against in the same run: a plain INSERT loop writing the
// same event and raw rows into tables of the same shape (same keys and indexes), from this process, with no
// JetStream, no decoding, no hash chain, no stream rows and no acks. What the database alone takes to store
// the rows from Node, in transactions of the service's batch size.
import Database from 'better-sqlite3';
import pg from 'pg';
import { performance } from 'node:perf_hooks';

const EVENT_COLUMNS = ['stream_id', 'seq', 'type', 'ts', 'body', 'content_hash', 'prev_hash', 'chain_hash', 'unknown_type'];
const RAW_COLUMNS = ['stream_id', 'attempt', 'raw_seq', 'kind', 'ts', 'js_seq', 'body', 'body_encoding', 'redacted'];
/** Rows per multi-row INSERT on PostgreSQL (9 parameters each, far below the 65,535 parameter limit). */
const ROWS_PER_STATEMENT = 500;

/** The rows in transactions of `batchSize`, events and raw records alternating as the two consumers do. */
function transactions(rows, batchSize) {
  const chunks = [];
  for (let start = 0; start < Math.max(rows.events.length, rows.raw.length); start += batchSize) {
    chunks.push({ table: 'events', rows: rows.events.slice(start, start + batchSize) }, { table: 'raw', rows: rows.raw.slice(start, start + batchSize) });
  }
  return chunks.filter((chunk) => chunk.rows.length > 0);
}

async function timed(rows, cpu, work) {
  const before = cpu();
  const started = performance.now();
  await work();
  const seconds = (performance.now() - started) / 1000;
  const after = cpu();
  return { seconds, eventsPerSecond: rows.events.length / seconds, messagesPerSecond: (rows.events.length + rows.raw.length) / seconds, cpu: { before, after } };
}

/** PostgreSQL: tables LIKE the service's (keys and indexes included), multi-row INSERT statements. */
export async function plainInsertPostgres(url, rows, batchSize, cpu) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('CREATE TABLE baseline_events (LIKE audit_events INCLUDING ALL); CREATE TABLE baseline_raw (LIKE audit_raw INCLUDING ALL)');
  const statement = (table, columns, count) =>
    `INSERT INTO baseline_${table} (${columns.join(', ')}) VALUES ${Array.from({ length: count }, (_, row) => `(${columns.map((_, column) => `$${row * columns.length + column + 1}`).join(', ')})`).join(', ')}`;
  const result = await timed(rows, cpu, async () => {
    for (const chunk of transactions(rows, batchSize)) {
      const columns = chunk.table === 'events' ? EVENT_COLUMNS : RAW_COLUMNS;
      await client.query('BEGIN');
      for (let start = 0; start < chunk.rows.length; start += ROWS_PER_STATEMENT) {
        const part = chunk.rows.slice(start, start + ROWS_PER_STATEMENT);
        await client.query(statement(chunk.table, columns, part.length), part.flatMap((row) => columns.map((column) => row[column])));
      }
      await client.query('COMMIT');
    }
  });
  await client.query('DROP TABLE baseline_events; DROP TABLE baseline_raw');
  await client.end();
  return result;
}

/** SQLite: a fresh file with the service's table definitions and pragmas, one prepared INSERT per row. */
export async function plainInsertSqlite(servicePath, baselinePath, rows, batchSize, cpu) {
  const source = new Database(servicePath, { readonly: true });
  const ddl = source.prepare("SELECT sql FROM sqlite_master WHERE tbl_name IN ('audit_events', 'audit_raw') AND sql IS NOT NULL").all();
  source.close();
  const db = new Database(baselinePath);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  for (const { sql } of ddl) db.exec(sql);
  const inserts = {
    events: db.prepare(`INSERT INTO audit_events (${EVENT_COLUMNS.join(', ')}) VALUES (${EVENT_COLUMNS.map(() => '?').join(', ')})`),
    raw: db.prepare(`INSERT INTO audit_raw (${RAW_COLUMNS.join(', ')}) VALUES (${RAW_COLUMNS.map(() => '?').join(', ')})`),
  };
  const result = await timed(rows, cpu, () => {
    for (const chunk of transactions(rows, batchSize)) {
      const columns = chunk.table === 'events' ? EVENT_COLUMNS : RAW_COLUMNS;
      db.exec('BEGIN IMMEDIATE');
      for (const row of chunk.rows) inserts[chunk.table].run(columns.map((column) => row[column]));
      db.exec('COMMIT');
    }
    return Promise.resolve();
  });
  db.close();
  return result;
}
