import pg from 'pg';
import { pendingMigrations } from '../migration.js';
import type { StoreBackend, StoreWriter } from '../sql-backend.js';
import { POSTGRES_MIGRATIONS } from './postgres-migrations.js';
import { PostgresRunner } from './postgres-runner.js';
import { PostgresWriter } from './postgres-writer.js';

/** Our bigint columns hold millisecond times and counts: numbers, not the strings pg returns by default. */
const types: pg.CustomTypesConfig = {
  getTypeParser: (id, format) => (id === pg.types.builtins.INT8 ? (value: string): number => Number(value) : (pg.types.getTypeParser(id, format) as unknown)),
};

export interface PostgresBackendOptions {
  readonly poolSize: number;
  /** A connection of the pool failed while idle (the server went away): reported, never thrown. */
  readonly onIdleError: (error: Error) => void;
}

/** Transactions and queries on a PostgreSQL pool; migrations under an advisory lock (several replicas may start at once). */
export class PostgresBackend implements StoreBackend {
  readonly dialect = 'postgres';
  readonly reader: PostgresRunner;
  private readonly pool: pg.Pool;

  constructor(url: string, options: PostgresBackendOptions) {
    this.pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize,
      // Fail fast while the server is away: the ingestion loop retries, queries answer 503.
      connectionTimeoutMillis: 3_000,
      idleTimeoutMillis: 30_000,
      keepAlive: true,
      statement_timeout: 60_000,
      application_name: 'llm-stream-audit-log',
      types,
    });
    this.pool.on('error', options.onIdleError);
    this.reader = new PostgresRunner(this.pool);
  }

  async transaction<T>(work: (writer: StoreWriter) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken = false;
    // A checked-out client reports a dropped connection as an 'error' event: unhandled, it would end the process.
    const onError = (): void => {
      broken = true;
    };
    client.on('error', onError);
    try {
      await client.query('BEGIN');
      const result = await work(new PostgresWriter(client));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      try {
        await client.query('ROLLBACK');
      } catch {
        // The connection is gone: it must not go back into the pool.
        broken = true;
      }
      throw error;
    } finally {
      client.off('error', onError);
      client.release(broken);
    }
  }

  async migrate(): Promise<number[]> {
    const applied: number[] = [];
    await this.transaction(async (tx) => {
      // One migrator at a time across replicas; the lock ends with the transaction.
      await tx.run('SELECT pg_advisory_xact_lock(7243519021)');
      await tx.run('CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at bigint NOT NULL)');
      const done = await tx.all<{ version: number }>('SELECT version FROM schema_migrations');
      for (const migration of pendingMigrations(POSTGRES_MIGRATIONS, new Set(done.map((row) => row.version)))) {
        await tx.run(migration.sql);
        await tx.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [migration.version, migration.name, Date.now()]);
        applied.push(migration.version);
      }
    });
    return applied;
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
