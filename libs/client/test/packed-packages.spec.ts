import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTRACT_VERSION } from '@llm-stream/contract';
import { getFreePort, repoRoot, runCommandOrThrow } from '@llm-stream/testing';
import { GATEWAY_ERROR_CODES } from '../src/http/index.js';
import { publishStored } from './nats-events.js';
import { scratchSuite } from './scratch-suite.js';
import { textStream } from './stream-fixtures.js';

const NODE = join(repoRoot(), 'node_modules', '.bin', 'node');

/** The system's npm (as a user would run it); offline first (the cache of the workspace install). */
async function npm(cwd: string, args: readonly string[]): Promise<string> {
  const result = await runCommandOrThrow('npm', [...args, '--prefer-offline', '--no-audit', '--no-fund'], { cwd, timeoutMs: 240_000 });
  return result.stdout;
}

describe('@llm-stream/contract and @llm-stream/client packed, installed outside the workspace (real nats-server)', () => {
  const suite = scratchSuite('llm-stream-packed-');

  // npm pack, npm install of the tarballs and tsc: one run on a loaded machine took more than the 30 s default.
  it('packs both, installs the tarballs, compiles TypeScript examples of both entry points of the client against them and runs them', async () => {
    const { server, nc, jsm, scratch } = suite();
    const tarballs: string[] = [];
    for (const lib of ['contract', 'client']) {
      const packed = await npm(join(repoRoot(), 'libs', lib), ['pack', '--json', '--pack-destination', scratch]);
      const [info] = JSON.parse(packed) as [{ filename: string; files: { path: string }[] }];
      expect(info.files.map((file) => file.path)).toContain('dist/index.js');
      if (lib === 'client') expect(info.files.map((file) => file.path)).toEqual(expect.arrayContaining(['dist/http/index.js', 'dist/http/index.d.ts']));
      expect(info.files.some((file) => file.path.endsWith('.spec.js'))).toBe(false);
      tarballs.push(join(scratch, info.filename));
    }
    writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
    writeFileSync(
      join(scratch, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { module: 'nodenext', target: 'es2022', strict: true, outDir: 'out', skipLibCheck: false },
        files: ['example.ts', 'http-example.ts'],
      }),
    );
    cpSync(join(__dirname, 'packed-example', 'example.ts.txt'), join(scratch, 'example.ts'));
    cpSync(join(__dirname, 'packed-example', 'http-example.ts.txt'), join(scratch, 'http-example.ts'));
    await npm(scratch, ['install', ...tarballs, '@nats-io/transport-node@^3.4.0', 'typescript@5.9.3', '@types/node@^24']);
    await runCommandOrThrow(NODE, [join(scratch, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', scratch], { cwd: scratch, timeoutMs: 120_000 });

    await publishStored(nc, jsm, 'demo', textStream('st_packed', 'demo', ['Hello ', 'from a tarball']));
    const run = await runCommandOrThrow(NODE, [join(scratch, 'out', 'example.js'), 'st_packed'], {
      cwd: scratch,
      env: { ...process.env, NATS_URL: server.url },
      timeoutMs: 60_000,
    });
    expect(JSON.parse(run.stdout)).toEqual({ contract: CONTRACT_VERSION, status: 'completed', text: 'Hello from a tarball' });

    // The /http entry point, from the tarball, with its declared dependencies only. No gateway runs in this
    // suite (apps/e2e/test/http-client-*.spec.ts drive the real one): a port nothing listens on.
    const port = await getFreePort();
    const http = await runCommandOrThrow(NODE, [join(scratch, 'out', 'http-example.js'), `http://127.0.0.1:${String(port)}`], { cwd: scratch, timeoutMs: 60_000 });
    expect(JSON.parse(http.stdout)).toEqual({ failure: 'connection_failed', seen: [], codes: GATEWAY_ERROR_CODES.length });
  }, 180_000);
});
