import type { Migration } from '../../migration.js';

/**
 * The initial schema (PostgreSQL). One row per stream, per contract event and per raw trace record. No
 * foreign keys: retention deletes a stream's rows itself, and ingestion does not pay a key check per event.
 * Listing indexes lead with the tenant (every query is a tenant's) and end with (started_at, stream_id), the
 * listing's order and cursor; the time index covers the stats query.
 */
export const MIGRATION_0001: Migration = {
  version: 1,
  name: 'initial',
  sql: `
CREATE TABLE audit_streams (
  stream_id text PRIMARY KEY,
  tenant text NOT NULL,
  provider text,
  model text,
  gateway_id text,
  status text NOT NULL DEFAULT 'running',
  error_category text,
  error_provider_code text,
  error_message text,
  stop_reason text,
  provider_stop_reason text,
  input_tokens bigint,
  output_tokens bigint,
  reasoning_tokens bigint,
  cached_input_tokens bigint,
  response_id text,
  provider_model text,
  trace_id text,
  started_at bigint NOT NULL,
  ended_at bigint,
  terminal_seq integer,
  event_count integer NOT NULL DEFAULT 0,
  raw_count integer NOT NULL DEFAULT 0,
  warning_count integer NOT NULL DEFAULT 0,
  unknown_event_count integer NOT NULL DEFAULT 0,
  chain_seq integer NOT NULL DEFAULT 0,
  chain_hash text NOT NULL,
  prompt text,
  first_seen_at bigint NOT NULL,
  updated_at bigint NOT NULL
) WITH (fillfactor = 80);

CREATE INDEX audit_streams_by_time ON audit_streams (tenant, started_at, stream_id)
  INCLUDE (status, error_category, provider, unknown_event_count);
CREATE INDEX audit_streams_by_status ON audit_streams (tenant, status, started_at, stream_id);
CREATE INDEX audit_streams_by_provider ON audit_streams (tenant, provider, started_at, stream_id);
CREATE INDEX audit_streams_by_model ON audit_streams (tenant, model, started_at, stream_id);
CREATE INDEX audit_streams_by_error ON audit_streams (tenant, error_category, started_at, stream_id)
  WHERE error_category IS NOT NULL;
CREATE INDEX audit_streams_by_trace ON audit_streams (trace_id) WHERE trace_id IS NOT NULL;

CREATE TABLE audit_events (
  stream_id text NOT NULL,
  seq integer NOT NULL,
  type text NOT NULL,
  ts bigint NOT NULL,
  body text NOT NULL,
  content_hash text NOT NULL,
  prev_hash text,
  chain_hash text,
  unknown_type text,
  PRIMARY KEY (stream_id, seq)
);
CREATE INDEX audit_events_unknown ON audit_events (stream_id) WHERE unknown_type IS NOT NULL;

CREATE TABLE audit_raw (
  stream_id text NOT NULL,
  attempt integer NOT NULL,
  raw_seq integer NOT NULL,
  kind text NOT NULL,
  ts bigint NOT NULL,
  js_seq bigint NOT NULL,
  body text NOT NULL,
  body_encoding text NOT NULL DEFAULT 'text',
  redacted smallint NOT NULL DEFAULT 0,
  PRIMARY KEY (stream_id, attempt, raw_seq)
);
`,
};
