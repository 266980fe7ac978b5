import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { postgresBinDir } from './binaries.js';
import { runCommandOrThrow } from './run-command.js';

/** A PostgreSQL server tests can get fresh databases from. */
export interface PostgresServer {
  /** URL of the server's maintenance database, e.g. `postgres://postgres@127.0.0.1:5432/postgres`. */
  readonly url: string;
  /** Creates a new empty database (default name `test_<random>`) and returns its URL. */
  createDatabase(name?: string): Promise<string>;
  /** Releases the server: a private cluster is shut down and deleted; on a shared server the databases created here are dropped. */
  stop(): Promise<void>;
}

const DATABASE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** A unique, valid database name; the time prefix makes leftovers of old runs easy to spot. */
export function freshDatabaseName(): string {
  return `test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
}

/** `adminUrl` with its database replaced by `database`. */
export function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function runSql(adminUrl: string, sql: string): Promise<void> {
  // -X: no ~/.psqlrc; ON_ERROR_STOP: a failed statement is a non-zero exit.
  await runCommandOrThrow(join(postgresBinDir(), 'psql'), ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', adminUrl, '-c', sql]);
}

/** CREATE DATABASE through `psql` (this library has no pg client) and returns the new database's URL. */
export async function createDatabaseOn(adminUrl: string, name: string = freshDatabaseName()): Promise<string> {
  if (!DATABASE_NAME.test(name)) {
    throw new Error(`invalid database name ${JSON.stringify(name)}: use lower-case letters, digits and _`);
  }
  await runSql(adminUrl, `CREATE DATABASE "${name}"`);
  return databaseUrl(adminUrl, name);
}

/** DROP DATABASE ... WITH (FORCE) (PostgreSQL 13+): sessions a test left open do not block the drop. */
export async function dropDatabaseOn(adminUrl: string, name: string): Promise<void> {
  await runSql(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}
