import type { Migration } from '../migration.js';
import { MIGRATION_0001 } from './migrations/0001-initial.js';
import { MIGRATION_0002 } from '../portable-migrations/0002-stream-route.js';

/** PostgreSQL migrations in version order. */
export const POSTGRES_MIGRATIONS: readonly Migration[] = [MIGRATION_0001, MIGRATION_0002];
