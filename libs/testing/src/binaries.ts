import { accessSync, constants, readdirSync, realpathSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';

/** A required server binary is not installed where we look. */
export class BinaryNotFoundError extends Error {
  readonly code = 'BINARY_NOT_FOUND';
  override readonly name = 'BinaryNotFoundError';
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable `name` on PATH, then in the given extra directories (`which` plus fallbacks). */
export function findExecutable(name: string, extraDirs: readonly string[] = []): string | undefined {
  const pathDirs = (process.env['PATH'] ?? '').split(delimiter).filter((dir) => dir !== '');
  return [...pathDirs, ...extraDirs].map((dir) => join(dir, name)).find(isExecutable);
}

/**
 * The nats-server binary: `NATS_SERVER_BIN` if set, else PATH, else /usr/sbin and /usr/local/bin (Debian installs
 * it in /usr/sbin, which is not on every user's PATH).
 */
export function natsServerBinary(): string {
  const override = process.env['NATS_SERVER_BIN'];
  if (override !== undefined && override !== '') {
    if (!isExecutable(override)) {
      throw new BinaryNotFoundError(`NATS_SERVER_BIN=${override} is not an executable file`);
    }
    return override;
  }
  const found = findExecutable('nats-server', ['/usr/sbin', '/usr/local/bin', '/usr/local/sbin']);
  if (found === undefined) {
    throw new BinaryNotFoundError('nats-server not found on PATH, in /usr/sbin or /usr/local/bin; set NATS_SERVER_BIN');
  }
  return found;
}

function newestDebianPostgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  let versions: string[];
  try {
    versions = readdirSync(root).filter((entry) => /^\d+(\.\d+)?$/.test(entry));
  } catch {
    return undefined;
  }
  return versions
    .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a))
    .map((version) => join(root, version, 'bin'))
    .find((dir) => isExecutable(join(dir, 'pg_ctl')));
}

/**
 * The directory of the PostgreSQL server binaries (initdb, pg_ctl, psql, pg_isready): `PG_BIN_DIR` if set (CI
 * exports it), else the newest /usr/lib/postgresql/<version>/bin, else the directory pg_ctl on PATH links to.
 * One directory for all of them, so client and server versions match.
 */
export function postgresBinDir(): string {
  const override = process.env['PG_BIN_DIR'];
  if (override !== undefined && override !== '') {
    if (!isExecutable(join(override, 'pg_ctl'))) {
      throw new BinaryNotFoundError(`PG_BIN_DIR=${override} holds no executable pg_ctl`);
    }
    return override;
  }
  const debian = newestDebianPostgresBinDir();
  if (debian !== undefined) {
    return debian;
  }
  const onPath = findExecutable('pg_ctl');
  if (onPath === undefined) {
    throw new BinaryNotFoundError('PostgreSQL binaries not found in /usr/lib/postgresql/*/bin or on PATH; set PG_BIN_DIR');
  }
  return dirname(realpathSync(onPath));
}
