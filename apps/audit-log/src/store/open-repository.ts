import { resolve } from 'node:path';
import type { AuditRepository } from './audit-repository.js';
import { PostgresBackend } from './postgres/postgres-backend.js';
import { SqlAuditRepository } from './sql-audit-repository.js';
import { SqliteBackend } from './sqlite/sqlite-backend.js';

export interface StoreSettings {
  /** PostgreSQL when set, else SQLite. */
  readonly databaseUrl: string;
  readonly sqlitePath: string;
  readonly poolSize: number;
  readonly onIdleError: (error: Error) => void;
}

/** The repository on the configured database (nothing is connected or migrated yet). */
export function openRepository(settings: StoreSettings): AuditRepository {
  if (settings.databaseUrl !== '') {
    return new SqlAuditRepository(new PostgresBackend(settings.databaseUrl, { poolSize: settings.poolSize, onIdleError: settings.onIdleError }));
  }
  return new SqlAuditRepository(new SqliteBackend(settings.sqlitePath === ':memory:' ? ':memory:' : resolve(settings.sqlitePath)));
}
