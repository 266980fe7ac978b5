import { join } from 'node:path';
import { SecretVolume } from '@llm-stream/testing';
import { sha256Hex } from './api-keys.js';
import { JsonLogger } from './json-logger.js';
import { loadApiKeys } from './load-api-keys.js';

const ENTRY = JSON.stringify([{ sha256: sha256Hex('key-0123456789'), tenant: 'acme' }]);

describe('loadApiKeys', () => {
  const lines: Record<string, unknown>[] = [];
  const logger = new JsonLogger('gateway', { write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  let volume: SecretVolume;

  beforeEach(() => {
    volume = new SecretVolume('keys.json', ENTRY);
  });

  afterEach(() => {
    volume.remove();
  });

  it('reads GATEWAY_API_KEYS when no file is named, and watches nothing', () => {
    const loaded = loadApiKeys({ GATEWAY_API_KEYS: ENTRY, GATEWAY_API_KEYS_FILE: '' }, logger);
    expect(loaded.ok && loaded.value.keys.authenticate({ 'x-api-key': 'key-0123456789' }).ok).toBe(true);
    expect(loaded.ok && loaded.value.watcher).toBeUndefined();
  });

  it('reads the file when one is named, and watches it', () => {
    const loaded = loadApiKeys({ GATEWAY_API_KEYS: '[]', GATEWAY_API_KEYS_FILE: volume.path }, logger);
    if (!loaded.ok) throw new Error(loaded.error.message);
    expect(loaded.value.keys.authenticate({ 'x-api-key': 'key-0123456789' }).ok).toBe(true);
    expect(loaded.value.watcher).toBeDefined();
    loaded.value.watcher?.close();
  });

  it.each([
    [{ GATEWAY_API_KEYS: ENTRY, GATEWAY_API_KEYS_FILE: 'FILE' }, 'invalid configuration: GATEWAY_API_KEYS_FILE and GATEWAY_API_KEYS are both set (set one)'],
    [{ GATEWAY_API_KEYS: '[]', GATEWAY_API_KEYS_FILE: 'MISSING' }, 'invalid configuration: GATEWAY_API_KEYS_FILE cannot be read (ENOENT)'],
    [{ GATEWAY_API_KEYS: 'nope', GATEWAY_API_KEYS_FILE: '' }, 'invalid configuration: GATEWAY_API_KEYS is not JSON'],
  ])('refuses to start with %j', (settings, message) => {
    const path = settings.GATEWAY_API_KEYS_FILE === 'FILE' ? volume.path : settings.GATEWAY_API_KEYS_FILE === 'MISSING' ? join(volume.dir, 'missing.json') : '';
    expect(loadApiKeys({ ...settings, GATEWAY_API_KEYS_FILE: path }, logger)).toMatchObject({ ok: false, error: { code: 'invalid_config', message } });
  });

  it('logs a rejected version with its reason, never a digest', async () => {
    const loaded = loadApiKeys({ GATEWAY_API_KEYS: '[]', GATEWAY_API_KEYS_FILE: volume.path }, logger);
    if (!loaded.ok) throw new Error(loaded.error.message);
    volume.update(`[{"sha256": "${'A'.repeat(64)}", "tenant": "acme"}]`);
    const deadline = Date.now() + 5_000;
    while (!lines.some((line) => line['msg'] === 'api key file rejected: the last good keys stay in effect')) {
      if (Date.now() > deadline) throw new Error('no rejection logged');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    loaded.value.watcher?.close();
    const line = lines.find((candidate) => candidate['msg'] === 'api key file rejected: the last good keys stay in effect');
    expect(line).toMatchObject({ level: 'warn', code: 'invalid_config', variable: 'GATEWAY_API_KEYS_FILE' });
    expect(JSON.stringify(line)).not.toContain('A'.repeat(64));
  });
});
