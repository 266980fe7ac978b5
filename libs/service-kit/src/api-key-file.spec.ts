import { join } from 'node:path';
import { SecretVolume } from '@llm-stream/testing';
import { ApiKeyFileWatcher, readApiKeyFile } from './api-key-file.js';
import { ApiKeys, sha256Hex, type ApiKeysError } from './api-keys.js';

const keyEntry = (key: string, tenant: string): { sha256: string; tenant: string } => ({ sha256: sha256Hex(key), tenant });

/** Polls until `condition` holds (at most 5 s): no fixed sleep. */
async function eventually(condition: () => boolean, description: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${description}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('ApiKeyFileWatcher on a Kubernetes Secret volume', () => {
  let volume: SecretVolume;
  let watcher: ApiKeyFileWatcher | undefined;
  const reloads: number[] = [];
  const rejections: ApiKeysError[] = [];

  function start(): ApiKeys {
    const initial = readApiKeyFile(volume.path);
    if (!initial.ok) throw new Error(initial.error.message);
    const keys = new ApiKeys(initial.value);
    // The poll is far beyond the test's 5 s: a reload seen here came from the directory watch.
    watcher = new ApiKeyFileWatcher(volume.path, keys, { reloaded: (count) => reloads.push(count), rejected: (error) => rejections.push(error) }, { settleMs: 20, pollIntervalMs: 600_000 });
    watcher.start();
    return keys;
  }

  beforeEach(() => {
    volume = new SecretVolume('keys.json', JSON.stringify([keyEntry('key-old-0001', 'acme')]));
    reloads.length = 0;
    rejections.length = 0;
  });

  afterEach(() => {
    watcher?.close();
    volume.remove();
  });

  it('adds and revokes keys when the ..data symlink is swapped', async () => {
    const keys = start();
    expect(keys.authenticate({ 'x-api-key': 'key-old-0001' }).ok).toBe(true);
    volume.update(JSON.stringify([keyEntry('key-old-0001', 'acme'), keyEntry('key-new-0002', 'acme')]));
    await eventually(() => keys.authenticate({ 'x-api-key': 'key-new-0002' }).ok, 'the added key to be accepted');
    volume.update(JSON.stringify([keyEntry('key-new-0002', 'acme')]));
    await eventually(() => !keys.authenticate({ 'x-api-key': 'key-old-0001' }).ok, 'the revoked key to be refused');
    expect(keys.authenticate({ 'x-api-key': 'key-new-0002' }).ok).toBe(true);
    expect(reloads).toEqual([2, 1]);
    expect(rejections).toEqual([]);
  });

  it('keeps the last good keys when the file turns bad, says why, and takes the next good version', async () => {
    const keys = start();
    volume.update('[{"sha256": "not a digest", "tenant": "acme"}]');
    await eventually(() => rejections.length === 1, 'the bad version to be rejected');
    expect(rejections[0]).toEqual({
      code: 'invalid_config',
      variable: 'GATEWAY_API_KEYS_FILE',
      message: 'invalid configuration: GATEWAY_API_KEYS_FILE entry 0: sha256 must be 64 lowercase hex digits',
    });
    expect(keys.authenticate({ 'x-api-key': 'key-old-0001' }).ok).toBe(true);
    volume.update(JSON.stringify([keyEntry('key-new-0002', 'globex')]));
    await eventually(() => keys.authenticate({ 'x-api-key': 'key-new-0002' }).ok, 'the next good version to take effect');
    expect(keys.authenticate({ 'x-api-key': 'key-old-0001' }).ok).toBe(false);
  });

  it('reports a file that cannot be read as an error value', () => {
    expect(readApiKeyFile(join(volume.dir, 'missing.json'))).toEqual({
      ok: false,
      error: { code: 'invalid_config', variable: 'GATEWAY_API_KEYS_FILE', message: 'invalid configuration: GATEWAY_API_KEYS_FILE cannot be read (ENOENT)' },
    });
  });
});
