import type { Migration } from '../migration.js';
import { MIGRATION_0001 } from './migrations/0001-initial.js';
import { MIGRATION_0002 } from '../portable-migrations/0002-stream-route.js';

/** SQLite migrations in version order (the same versions as PostgreSQL's). */
export const SQLITE_MIGRATIONS: readonly Migration[] = [MIGRATION_0001, MIGRATION_0002];
