import type { Migration } from '../../migration.js';

/**
 * The initial schema (SQLite): the same tables and indexes as PostgreSQL's version 1. Event and raw tables
 * are WITHOUT ROWID, clustered on their keys, so one stream's rows are read from adjacent pages. SQLite has
 * no INCLUDE: the time index carries the stats columns as trailing key columns instead.
 */
export const MIGRATION_0001: Migration = {
  version: 1,
  name: 'initial',
  sql: `
CREATE TABLE audit_streams (
  stream_id TEXT PRIMARY KEY,
  tenant TEXT NOT NULL,
  provider TEXT,
  model TEXT,
  gateway_id TEXT,
  status TEXT NOT NULL DEFAULT 'running',
  error_category TEXT,
  error_provider_code TEXT,
  error_message TEXT,
  stop_reason TEXT,
  provider_stop_reason TEXT,
  input_tokens INTEGER,
  output_tokens INTEGER,
  reasoning_tokens INTEGER,
  cached_input_tokens INTEGER,
  response_id TEXT,
  provider_model TEXT,
  trace_id TEXT,
  started_at INTEGER NOT NULL,
  ended_at INTEGER,
  terminal_seq INTEGER,
  event_count INTEGER NOT NULL DEFAULT 0,
  raw_count INTEGER NOT NULL DEFAULT 0,
  warning_count INTEGER NOT NULL DEFAULT 0,
  unknown_event_count INTEGER NOT NULL DEFAULT 0,
  chain_seq INTEGER NOT NULL DEFAULT 0,
  chain_hash TEXT NOT NULL,
  prompt TEXT,
  first_seen_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

CREATE INDEX audit_streams_by_time ON audit_streams (tenant, started_at, stream_id, status, error_category, provider, unknown_event_count);
CREATE INDEX audit_streams_by_status ON audit_streams (tenant, status, started_at, stream_id);
CREATE INDEX audit_streams_by_provider ON audit_streams (tenant, provider, started_at, stream_id);
CREATE INDEX audit_streams_by_model ON audit_streams (tenant, model, started_at, stream_id);
CREATE INDEX audit_streams_by_error ON audit_streams (tenant, error_category, started_at, stream_id)
  WHERE error_category IS NOT NULL;
CREATE INDEX audit_streams_by_trace ON audit_streams (trace_id) WHERE trace_id IS NOT NULL;

CREATE TABLE audit_events (
  stream_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  type TEXT NOT NULL,
  ts INTEGER NOT NULL,
  body TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  prev_hash TEXT,
  chain_hash TEXT,
  unknown_type TEXT,
  PRIMARY KEY (stream_id, seq)
) WITHOUT ROWID;
CREATE INDEX audit_events_unknown ON audit_events (stream_id) WHERE unknown_type IS NOT NULL;

CREATE TABLE audit_raw (
  stream_id TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  raw_seq INTEGER NOT NULL,
  kind TEXT NOT NULL,
  ts INTEGER NOT NULL,
  js_seq INTEGER NOT NULL,
  body TEXT NOT NULL,
  body_encoding TEXT NOT NULL DEFAULT 'text',
  redacted INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (stream_id, attempt, raw_seq)
) WITHOUT ROWID;
`,
};
