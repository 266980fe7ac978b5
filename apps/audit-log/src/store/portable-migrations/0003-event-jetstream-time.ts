import type { Migration } from '../migration.js';

/**
 * JetStream's time of each event's message (ms since the epoch): when LLM_EVENTS stored the event, beside the
 * event's own `ts` (when the normalizer produced it). The console's timeline shows both against the raw frames'
 * arrival. NULL for events stored before this version. BIGINT is an integer on both databases (SQLite gives it
 * INTEGER affinity): one migration in both lists.
 */
export const MIGRATION_0003: Migration = {
  version: 3,
  name: 'event-jetstream-time',
  sql: `
ALTER TABLE audit_events ADD COLUMN js_time BIGINT;
`,
};
