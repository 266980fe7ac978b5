import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { CONTRACT_VERSION } from '@llm-stream/contract';
import { ensurePipelineStreams } from '@llm-stream/pipeline';
import { repoRoot, runCommandOrThrow, startNatsServer, type NatsServerHandle } from '@llm-stream/testing';
import { publishStored } from './nats-events.js';
import { textStream } from './stream-fixtures.js';

const NODE = join(repoRoot(), 'node_modules', '.bin', 'node');

/** The system's npm (as a user would run it); offline first (the cache of the workspace install). */
async function npm(cwd: string, args: readonly string[]): Promise<string> {
  const result = await runCommandOrThrow('npm', [...args, '--prefer-offline', '--no-audit', '--no-fund'], { cwd, timeoutMs: 240_000 });
  return result.stdout;
}

describe('@llm-stream/contract and @llm-stream/client packed, installed outside the workspace (real nats-server)', () => {
  let server: NatsServerHandle;
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  let scratch: string;

  beforeAll(async () => {
    server = await startNatsServer();
    nc = await connect({ servers: server.url });
    jsm = await jetstreamManager(nc);
    await ensurePipelineStreams(jsm);
    scratch = mkdtempSync(join(tmpdir(), 'llm-stream-packed-'));
  });

  afterAll(async () => {
    await nc.close();
    await server.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('packs both, installs the tarballs, compiles a TypeScript example against them and runs it', async () => {
    const tarballs: string[] = [];
    for (const lib of ['contract', 'client']) {
      const packed = await npm(join(repoRoot(), 'libs', lib), ['pack', '--json', '--pack-destination', scratch]);
      const [info] = JSON.parse(packed) as [{ filename: string; files: { path: string }[] }];
      expect(info.files.map((file) => file.path)).toContain('dist/index.js');
      expect(info.files.some((file) => file.path.endsWith('.spec.js'))).toBe(false);
      tarballs.push(join(scratch, info.filename));
    }
    writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
    writeFileSync(
      join(scratch, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { module: 'nodenext', target: 'es2022', strict: true, outDir: 'out', skipLibCheck: false }, files: ['example.ts'] }),
    );
    cpSync(join(__dirname, 'packed-example', 'example.ts.txt'), join(scratch, 'example.ts'));
    await npm(scratch, ['install', ...tarballs, '@nats-io/transport-node@^3.4.0', 'typescript@5.9.3', '@types/node@^24']);
    await runCommandOrThrow(NODE, [join(scratch, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', scratch], { cwd: scratch, timeoutMs: 120_000 });

    await publishStored(nc, jsm, 'demo', textStream('st_packed', 'demo', ['Hello ', 'from a tarball']));
    const run = await runCommandOrThrow(NODE, [join(scratch, 'out', 'example.js'), 'st_packed'], {
      cwd: scratch,
      env: { ...process.env, NATS_URL: server.url },
      timeoutMs: 60_000,
    });
    expect(JSON.parse(run.stdout)).toEqual({ contract: CONTRACT_VERSION, status: 'completed', text: 'Hello from a tarball' });
  });
});
