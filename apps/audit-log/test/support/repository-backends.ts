import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPostgresOrUseExisting, type PostgresServer } from '@llm-stream/testing';
import type { AuditRepository } from '../../src/store/audit-repository.js';
import { PostgresBackend } from '../../src/store/postgres/postgres-backend.js';
import { SqlAuditRepository } from '../../src/store/sql-audit-repository.js';
import type { SqlRunner } from '../../src/store/sql-backend.js';
import { SqliteBackend } from '../../src/store/sqlite/sqlite-backend.js';

/** A repository on a fresh database, and a raw SQL door into the same database (for tampering and checks). */
export interface RepositoryUnderTest {
  readonly repository: AuditRepository;
  readonly sql: SqlRunner;
  close(): Promise<void>;
}

export type BackendName = 'sqlite' | 'postgres';
export const BACKENDS: readonly BackendName[] = ['sqlite', 'postgres'];

let postgres: Promise<PostgresServer> | undefined;

/** The PostgreSQL server of this test file: TEST_DATABASE_URL's, or a private cluster. */
export function postgresServer(): Promise<PostgresServer> {
  postgres ??= startPostgresOrUseExisting();
  return postgres;
}

export async function stopPostgresServer(): Promise<void> {
  if (postgres !== undefined) await (await postgres).stop();
  postgres = undefined;
}

/** A fresh database (SQLite: a new file; PostgreSQL: a new database), migrated. */
export async function openRepository(backend: BackendName): Promise<RepositoryUnderTest> {
  if (backend === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'audit-sqlite-'));
    const store = new SqliteBackend(join(dir, 'audit.sqlite'));
    const inspector = new SqliteBackend(join(dir, 'audit.sqlite'));
    const repository = new SqlAuditRepository(store);
    await repository.migrate();
    return {
      repository,
      sql: writerOf(inspector),
      close: async () => {
        await repository.close();
        await inspector.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const url = await (await postgresServer()).createDatabase();
  const store = new PostgresBackend(url, { poolSize: 4, onIdleError: () => undefined });
  const repository = new SqlAuditRepository(store);
  await repository.migrate();
  const inspector = new PostgresBackend(url, { poolSize: 1, onIdleError: () => undefined });
  return {
    repository,
    sql: writerOf(inspector),
    close: async () => {
      await repository.close();
      await inspector.close();
    },
  };
}

/** Statements run in their own transaction each (the reader of SQLite is a read connection). */
function writerOf(backend: SqliteBackend | PostgresBackend): SqlRunner {
  return {
    all: (sql, params) => backend.transaction((tx) => tx.all(sql, params)),
    run: (sql, params) => backend.transaction((tx) => tx.run(sql, params)),
  };
}

/** Where a running audit log keeps its store: a SQLite file or a PostgreSQL database. */
export type StoreLocation = { readonly sqlitePath: string } | { readonly databaseUrl: string };

/** A repository and a raw SQL door on a store another process (a running audit log) migrated and writes. */
export function attachRepository(location: StoreLocation): RepositoryUnderTest {
  const open = (): SqliteBackend | PostgresBackend =>
    'sqlitePath' in location ? new SqliteBackend(location.sqlitePath) : new PostgresBackend(location.databaseUrl, { poolSize: 4, onIdleError: () => undefined });
  const store = open();
  const inspector = open();
  const repository = new SqlAuditRepository(store);
  return {
    repository,
    sql: writerOf(inspector),
    close: async () => {
      await repository.close();
      await inspector.close();
    },
  };
}
