import { mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RouteSecret } from './route-secret.js';

describe('RouteSecret', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'route-secret-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  /** A Kubernetes Secret volume: `token -> ..data/token`, `..data -> ..<timestamp>`; an update swaps `..data`. */
  function secretVolume(version: string, token: string): void {
    const versionDir = join(dir, `..${version}`);
    mkdirSync(versionDir);
    writeFileSync(join(versionDir, 'token'), `${token}\n`);
    symlinkSync(`..${version}`, join(dir, '..data_tmp'));
    renameSync(join(dir, '..data_tmp'), join(dir, '..data'));
  }

  it('reads an environment variable once, trimmed', () => {
    const secret = RouteSecret.load({ kind: 'env', variable: 'KEY' }, { KEY: ' sk-env-key \n' });
    expect(secret.ok && secret.value.current()).toBe('sk-env-key');
  });

  it('refuses a missing or empty secret at load, naming where it should be', () => {
    expect(RouteSecret.load({ kind: 'env', variable: 'KEY' }, { KEY: '' })).toMatchObject({ ok: false, error: { code: 'secret_unavailable', message: 'environment variable KEY is missing or empty' } });
    expect(RouteSecret.load({ kind: 'file', path: join(dir, 'absent') }, {})).toMatchObject({ ok: false, error: { code: 'secret_unavailable' } });
  });

  it('follows a ..data symlink swap: the next use reads the rotated token', () => {
    secretVolume('2026_12_02_05_00', 'ya29.first-token');
    symlinkSync('..data/token', join(dir, 'token'));
    const loaded = RouteSecret.load({ kind: 'file', path: join(dir, 'token') }, {});
    if (!loaded.ok) throw new Error(loaded.error.message);
    expect(loaded.value.current()).toBe('ya29.first-token');
    secretVolume('2026_12_02_05_55', 'ya29.second-token');
    expect(loaded.value.current()).toBe('ya29.second-token');
    expect(loaded.value.lastValue).toBe('ya29.second-token');
  });

  it('keeps the last good value while the file is empty or gone', () => {
    const path = join(dir, 'token');
    writeFileSync(path, 'ya29.good-token');
    const loaded = RouteSecret.load({ kind: 'file', path }, {});
    if (!loaded.ok) throw new Error(loaded.error.message);
    writeFileSync(path, '');
    expect(loaded.value.current()).toBe('ya29.good-token');
    rmSync(path);
    expect(loaded.value.current()).toBe('ya29.good-token');
    writeFileSync(path, 'ya29.next-token');
    expect(loaded.value.current()).toBe('ya29.next-token');
  });
});
