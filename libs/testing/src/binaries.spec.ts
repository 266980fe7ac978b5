import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BinaryNotFoundError, natsServerBinary, postgresBinDir } from './binaries.js';

/** Runs `body` with environment variables changed, restoring them afterwards. */
function withEnv(changes: Record<string, string | undefined>, body: () => void): void {
  const saved = Object.fromEntries(Object.keys(changes).map((key) => [key, process.env[key]]));
  const apply = (values: Record<string, string | undefined>): void => {
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined) {
        Reflect.deleteProperty(process.env, key);
      } else {
        process.env[key] = value;
      }
    }
  };
  apply(changes);
  try {
    body();
  } finally {
    apply(saved);
  }
}

describe('server binaries', () => {
  it('finds nats-server outside PATH (Debian puts it in /usr/sbin)', () => {
    withEnv({ PATH: '/nonexistent', NATS_SERVER_BIN: undefined }, () => {
      expect(existsSync(natsServerBinary())).toBe(true);
    });
  });

  it('lets NATS_SERVER_BIN override the lookup, and rejects a wrong one', () => {
    const found = natsServerBinary();
    withEnv({ NATS_SERVER_BIN: found }, () => {
      expect(natsServerBinary()).toBe(found);
    });
    withEnv({ NATS_SERVER_BIN: '/nonexistent/nats-server' }, () => {
      expect(() => natsServerBinary()).toThrow(BinaryNotFoundError);
    });
  });

  it('finds one PostgreSQL bin dir with the server and client tools, overridable by PG_BIN_DIR', () => {
    const dir = postgresBinDir();
    for (const tool of ['initdb', 'postgres', 'pg_isready', 'psql']) {
      expect(existsSync(join(dir, tool))).toBe(true);
    }
    withEnv({ PG_BIN_DIR: dir }, () => {
      expect(postgresBinDir()).toBe(dir);
    });
    withEnv({ PG_BIN_DIR: '/nonexistent' }, () => {
      expect(() => postgresBinDir()).toThrow(BinaryNotFoundError);
    });
  });
});
