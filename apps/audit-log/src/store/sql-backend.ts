import type { StreamRow } from './stream-record.js';

export type SqlScalar = string | number | null;
/** Arrays are for PostgreSQL's bulk statements (unnest) only. */
export type SqlParam = SqlScalar | readonly SqlScalar[];

/**
 * Runs SQL written once for both databases, with PostgreSQL's `$1, $2...` placeholders (the SQLite backend
 * rewrites them). Integers come back as numbers on both (PostgreSQL's bigint included: our values are
 * millisecond times and counts, far below 2^53).
 */
export interface SqlRunner {
  all<Row>(sql: string, params?: readonly SqlParam[]): Promise<Row[]>;
  /** Returns the number of rows changed. */
  run(sql: string, params?: readonly SqlParam[]): Promise<number>;
}

/** One `audit_events` row. */
export interface EventRow {
  readonly stream_id: string;
  readonly seq: number;
  readonly type: string;
  readonly ts: number;
  /** JetStream's time of the message (ms since the epoch), null when unknown. */
  readonly js_time: number | null;
  readonly body: string;
  readonly content_hash: string;
  readonly prev_hash: string | null;
  readonly chain_hash: string | null;
  /** The provider event or part type of an unknown-event warning. */
  readonly unknown_type: string | null;
}

/** Links a stored, not yet linked event into its stream's chain. */
export interface EventLink {
  readonly stream_id: string;
  readonly seq: number;
  readonly prev_hash: string;
  readonly chain_hash: string;
}

/** One `audit_raw` row. `body_encoding` is `json` when the text was stored as a JSON string literal. */
export interface RawRow {
  readonly stream_id: string;
  readonly attempt: number;
  readonly raw_seq: number;
  readonly kind: string;
  readonly ts: number;
  readonly js_seq: number;
  readonly body: string;
  readonly body_encoding: 'text' | 'json';
  readonly redacted: number;
}

/** The writes whose best form differs between the databases (bulk statements), inside one transaction. */
export interface StoreWriter extends SqlRunner {
  /**
   * Inserts the streams of `seeds` that do not exist yet, locks every one of them until the transaction
   * ends (in stream_id order, so two writers never deadlock) and returns their current rows.
   */
  lockStreams(seeds: readonly StreamRow[]): Promise<StreamRow[]>;
  /** Inserts events, skipping keys already stored; returns how many were inserted. */
  insertEvents(rows: readonly EventRow[]): Promise<number>;
  linkEvents(links: readonly EventLink[]): Promise<void>;
  /** Inserts raw records, skipping keys already stored; returns how many were inserted per stream. */
  insertRaw(rows: readonly RawRow[]): Promise<ReadonlyMap<string, number>>;
  /** Writes every mutable column of the given (locked) rows. */
  updateStreams(rows: readonly StreamRow[]): Promise<void>;
}

/** A database the audit repository runs on. */
export interface StoreBackend {
  readonly dialect: 'postgres' | 'sqlite';
  /** For queries outside transactions (they see committed data only). */
  readonly reader: SqlRunner;
  /** Runs `work` in one transaction: committed if it resolves, rolled back if it throws. */
  transaction<T>(work: (writer: StoreWriter) => Promise<T>): Promise<T>;
  /** Applies this dialect's migrations not applied yet; returns their versions. */
  migrate(): Promise<number[]>;
  close(): Promise<void>;
}
