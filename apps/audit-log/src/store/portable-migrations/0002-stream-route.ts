import type { Migration } from '../migration.js';

/**
 * The gateway route of each stream (contract 1.1.0's `route`), and its own index for `?route=`; NULL for older
 * streams. The same SQL on both databases: one migration in both lists.
 */
export const MIGRATION_0002: Migration = {
  version: 2,
  name: 'stream-route',
  sql: `
ALTER TABLE audit_streams ADD COLUMN route TEXT;
CREATE INDEX audit_streams_by_route ON audit_streams (tenant, route, started_at, stream_id);
`,
};
