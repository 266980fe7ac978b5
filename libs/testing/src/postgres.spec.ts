import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { postgresBinDir } from './binaries.js';
import { isPortOpen } from './port-probe.js';
import { startPostgres, type PostgresHandle } from './postgres-cluster.js';
import { startPostgresOrUseExisting, useExistingPostgres } from './postgres-existing.js';
import { runCommand, runCommandOrThrow } from './run-command.js';

/** Runs SQL through psql (no pg client here) and returns the unaligned, tuples-only output. */
async function psql(url: string, sql: string): Promise<string> {
  const result = await runCommandOrThrow(join(postgresBinDir(), 'psql'), ['-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-d', url, '-c', sql]);
  return result.stdout.trim();
}

describe('startPostgres', () => {
  let server: PostgresHandle;

  beforeAll(async () => {
    server = await startPostgres();
  });

  afterAll(async () => {
    await server.stop();
  });

  it('starts a private trust-auth cluster on 127.0.0.1', async () => {
    expect(server.url).toBe(`postgres://postgres@127.0.0.1:${server.port}/postgres`);
    expect(server.isRunning()).toBe(true);
    expect(existsSync(join(server.dataDir, 'PG_VERSION'))).toBe(true);
    expect(await psql(server.url, 'select current_user')).toBe('postgres');
    expect(await psql(server.url, 'show fsync')).toBe('off');
  });

  it('creates fresh databases that accept connections', async () => {
    const first = await server.createDatabase();
    const second = await server.createDatabase('named_by_test');

    expect(first).not.toBe(second);
    expect(second).toBe(`postgres://postgres@127.0.0.1:${server.port}/named_by_test`);
    expect(await psql(first, 'select 1')).toBe('1');
    expect(await psql(second, 'select current_database()')).toBe('named_by_test');
    await expect(server.createDatabase('Robert"; drop')).rejects.toThrow(/invalid database name/);
  });

  it('is killed like a crash and restarts on the same port and data dir with committed data', async () => {
    const url = await server.createDatabase();
    await psql(url, "create table survivors(name text); insert into survivors values ('kept')");

    await server.kill();

    expect(server.isRunning()).toBe(false);
    expect(await isPortOpen('127.0.0.1', server.port)).toBe(false);
    const isReady = await runCommand(join(postgresBinDir(), 'pg_isready'), ['-q', '-h', '127.0.0.1', '-p', String(server.port)]);
    expect(isReady.code).not.toBe(0);

    await server.restart();

    expect(server.isRunning()).toBe(true);
    expect(await psql(url, 'select name from survivors')).toBe('kept');
    // The restart went through crash recovery: the kill was not a clean shutdown.
    expect(server.logTail(200)).toMatch(/database system was interrupted|not properly shut down/);
  });

  it('restarts a running server', async () => {
    await server.restart();

    expect(await psql(server.url, 'select 1')).toBe('1');
  });
});

describe('startPostgres lifecycle', () => {
  it('deletes the cluster on stop, and refuses to be used afterwards', async () => {
    const server = await startPostgres();
    const tempDir = join(server.dataDir, '..');

    await server.stop();

    expect(existsSync(tempDir)).toBe(false);
    expect(await isPortOpen('127.0.0.1', server.port)).toBe(false);
    await expect(server.restart()).rejects.toMatchObject({ code: 'POSTGRES_STOPPED' });
  });

});

describe('a second private cluster', () => {
  let other: PostgresHandle;

  beforeAll(async () => {
    other = await startPostgres();
  });

  afterAll(async () => {
    await other.stop();
  });

  it('cannot take the port of a running one: the start fails with the server log', async () => {
    await expect(startPostgres({ port: other.port })).rejects.toThrow(/could not (bind|create listen socket)/i);
  });

  it('serves as a shared server: useExistingPostgres creates fresh databases and drops them on stop', async () => {
    const shared = useExistingPostgres(other.url);
    const url = await shared.createDatabase();
    const name = new URL(url).pathname.slice(1);
    expect(name).toMatch(/^test_/);
    expect(await psql(url, 'select 1')).toBe('1');

    await shared.stop();

    expect(await psql(other.url, `select count(*) from pg_database where datname = '${name}'`)).toBe('0');
  });

  it('is what startPostgresOrUseExisting returns when TEST_DATABASE_URL names it', async () => {
    process.env['TEST_DATABASE_URL'] = other.url;
    try {
      const server = await startPostgresOrUseExisting();
      const url = await server.createDatabase();

      expect(server.url).toBe(other.url);
      expect(url.startsWith(`postgres://postgres@127.0.0.1:${other.port}/test_`)).toBe(true);
      await server.stop();
    } finally {
      delete process.env['TEST_DATABASE_URL'];
    }
  });
});
