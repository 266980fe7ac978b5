import type { Migration } from '../migration.js';

/**
 * The cache writes of each stream's usage (contract 1.2.0's `cache_creation_input_tokens` and its split per
 * lifetime, `cache_creation`), so that a record's usage is the one `stream.done` reported; NULL where the
 * usage had none, and for streams stored before this version. BIGINT is an integer on both databases (SQLite
 * gives it INTEGER affinity): one migration in both lists.
 */
export const MIGRATION_0004: Migration = {
  version: 4,
  name: 'stream-cache-creation',
  sql: `
ALTER TABLE audit_streams ADD COLUMN cache_creation_input_tokens BIGINT;
ALTER TABLE audit_streams ADD COLUMN cache_creation_5m_input_tokens BIGINT;
ALTER TABLE audit_streams ADD COLUMN cache_creation_1h_input_tokens BIGINT;
`,
};
