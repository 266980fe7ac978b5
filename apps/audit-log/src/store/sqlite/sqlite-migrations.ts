import type { Migration } from '../migration.js';
import { MIGRATION_0001 } from './migrations/0001-initial.js';
import { MIGRATION_0002 } from '../portable-migrations/0002-stream-route.js';
import { MIGRATION_0003 } from '../portable-migrations/0003-event-jetstream-time.js';
import { MIGRATION_0004 } from '../portable-migrations/0004-stream-cache-creation.js';

/** SQLite migrations in version order (the same versions as PostgreSQL's). */
export const SQLITE_MIGRATIONS: readonly Migration[] = [MIGRATION_0001, MIGRATION_0002, MIGRATION_0003, MIGRATION_0004];
