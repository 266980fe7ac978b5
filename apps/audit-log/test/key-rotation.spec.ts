import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { SecretVolume, waitFor } from '@llm-stream/testing';
import { startAuthorizedNats, type AuthorizedNats } from './support/authorized-nats.js';
import { getJson } from './support/http.js';
import { startAudit, startGateway, type Service } from './support/services.js';

const OLD_KEY = 'rotation-key-old-1f2e';
const NEW_KEY = 'rotation-key-new-7a6b';

const keysFile = (...keys: string[]): string =>
  JSON.stringify(keys.map((key) => ({ sha256: createHash('sha256').update(key, 'utf8').digest('hex'), tenant: 'acme', scopes: ['streams', 'audit:read'] })));

/**
 * Key rotation on running services, the way Kubernetes updates a Secret volume (a `..data` symlink swap):
 * no restart, a key added works and a key revoked stops working within seconds, on the gateway and the audit log.
 */
describe('GATEWAY_API_KEYS_FILE: rotation on a running gateway and audit log', () => {
  let nats: AuthorizedNats;
  let volume: SecretVolume;
  let gateway: Service;
  let audit: Service;

  beforeAll(async () => {
    nats = await startAuthorizedNats();
    volume = new SecretVolume('api-keys.json', keysFile(OLD_KEY));
    const keys = { GATEWAY_API_KEYS_FILE: volume.path };
    [gateway, audit] = await Promise.all([
      startGateway({ ...nats.serviceEnv('gateway'), ...keys }),
      startAudit({ ...nats.serviceEnv('audit-log'), ...keys, AUDIT_SQLITE_PATH: join(volume.dir, 'audit.sqlite') }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([gateway.stop(), audit.stop()]);
    await nats.stop();
    volume.remove();
  });

  /** Whether each service accepts the key: the gateway answers 404 for an unknown stream, the audit log lists streams. */
  async function accepted(key: string): Promise<{ gateway: boolean; audit: boolean }> {
    const [onGateway, onAudit] = await Promise.all([
      getJson(`${gateway.url}/v1/streams/st_00000000000000000000000000/events`, key),
      getJson(`${audit.url}/v1/streams`, key),
    ]);
    return { gateway: onGateway.status !== 401, audit: onAudit.status === 200 };
  }

  const waitUntil = (key: string, expected: boolean, description: string): Promise<unknown> =>
    waitFor(
      async () => {
        const state = await accepted(key);
        return state.gateway === expected && state.audit === expected;
      },
      { timeoutMs: 10_000, intervalMs: 100, description },
    );

  it('accepts the keys of the file at start, and no other', async () => {
    expect(await accepted(OLD_KEY)).toEqual({ gateway: true, audit: true });
    expect(await accepted(NEW_KEY)).toEqual({ gateway: false, audit: false });
  });

  it('takes a key added to the file within seconds, without a restart', async () => {
    volume.update(keysFile(OLD_KEY, NEW_KEY));
    await waitUntil(NEW_KEY, true, 'the added key to work on both services');
    expect(await accepted(OLD_KEY)).toEqual({ gateway: true, audit: true });
  });

  it('refuses a revoked key within seconds', async () => {
    volume.update(keysFile(NEW_KEY));
    await waitUntil(OLD_KEY, false, 'the revoked key to be refused by both services');
    expect(await accepted(NEW_KEY)).toEqual({ gateway: true, audit: true });
  });

  it('keeps the last good keys when the file turns bad, and says why on each service', async () => {
    volume.update('{"not": "a key list"}');
    for (const service of [gateway, audit]) {
      await waitFor(() => service.process.lines.some((line) => line.includes('api key file rejected')), {
        timeoutMs: 10_000,
        description: 'the rejection to be logged',
      });
      const line = service.process.lines.find((candidate) => candidate.includes('api key file rejected'))!;
      expect(JSON.parse(line)).toMatchObject({ level: 'warn', code: 'invalid_config', variable: 'GATEWAY_API_KEYS_FILE' });
    }
    expect(await accepted(NEW_KEY)).toEqual({ gateway: true, audit: true });
    expect(await accepted(OLD_KEY)).toEqual({ gateway: false, audit: false });
  });
});
