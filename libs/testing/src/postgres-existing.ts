import { startPostgres } from './postgres-cluster.js';
import { createDatabaseOn, dropDatabaseOn, freshDatabaseName, type PostgresServer } from './postgres-database.js';

/**
 * A server someone else runs (e.g. CI's service container): this run only creates fresh databases on it, and
 * drops them on stop. `url` must name a role allowed to create databases and its maintenance database.
 */
export function useExistingPostgres(url: string): PostgresServer {
  const created: string[] = [];
  return {
    url,
    createDatabase: async (name = freshDatabaseName()) => {
      const databaseUrl = await createDatabaseOn(url, name);
      created.push(name);
      return databaseUrl;
    },
    stop: async () => {
      for (const name of created.splice(0)) {
        await dropDatabaseOn(url, name);
      }
    },
  };
}

/**
 * The server for tests that only need databases: the one in `TEST_DATABASE_URL` when set, else a private
 * cluster. Tests that kill or restart PostgreSQL must call {@link startPostgres} themselves.
 */
export async function startPostgresOrUseExisting(): Promise<PostgresServer> {
  const existing = process.env['TEST_DATABASE_URL'];
  return existing === undefined || existing === '' ? startPostgres() : useExistingPostgres(existing);
}
