import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getFreePort, repoRoot, startProcess, type ManagedProcess } from '@llm-stream/testing';
import { startPipeline, type Pipeline } from './support/pipeline.js';

/**
 * What ships is what is tested: every service of a running system reports the Node.js major that the root
 * package.json's `engines` names (the images' release is held to the same major by the deploy checks). A test
 * run on another runtime (a machine whose npm scripts fall back to an old system Node) fails here.
 */
const engines = (JSON.parse(readFileSync(join(repoRoot(), 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
const supportedMajor = /^>=\s*(\d+)/.exec(engines)?.[1];

/** `nodejs_version_info{version="v24.22.3",major="24",...} 1` from a service's Prometheus metrics. */
async function reportedVersion(baseUrl: string): Promise<string> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const version = /^nodejs_version_info\{[^}]*version="(v[\d.]+)"/m.exec(text)?.[1];
  if (version === undefined) throw new Error(`${baseUrl}/metrics has no nodejs_version_info`);
  return version;
}

/** The release of the binary a child runs (for a service without metrics). */
function binaryVersion(child: ManagedProcess): string {
  const executable = readlinkSync(`/proc/${String(child.pid)}/exe`);
  return execFileSync(executable, ['-p', 'process.version'], { encoding: 'utf8' }).trim();
}

describe('the runtime every service runs on', () => {
  let pipeline: Pipeline;
  let audit: ManagedProcess;
  let auditUrl: string;
  let auditDir: string;

  beforeAll(async () => {
    pipeline = await startPipeline();
    auditDir = mkdtempSync(join(tmpdir(), 'llm-stream-runtime-audit-'));
    const port = await getFreePort();
    audit = startProcess(process.execPath, [join(repoRoot(), 'apps/audit-log/dist/main.js')], {
      name: 'audit-log',
      env: { ...pipeline.natsEnv('audit-log'), HTTP_HOST: '127.0.0.1', HTTP_PORT: String(port), AUDIT_SQLITE_PATH: join(auditDir, 'audit.sqlite') },
    });
    await audit.waitForLine(/"msg":"audit-log ready"/, 20_000);
    auditUrl = `http://127.0.0.1:${String(port)}`;
  }, 60_000);

  afterAll(async () => {
    await audit.stop('SIGTERM', 5_000);
    await pipeline.stop();
    rmSync(auditDir, { recursive: true, force: true });
  });

  it('is the test run’s own, of the major package.json supports', () => {
    expect(supportedMajor).toBeDefined();
    expect(process.version.split('.')[0]).toBe(`v${supportedMajor ?? ''}`);
  });

  it('is reported by the gateway, the normalizer, the audit log and the replay provider', async () => {
    const versions = {
      gateway: await reportedVersion(pipeline.gatewayUrl),
      normalizer: await reportedVersion(pipeline.normalizers[0]?.url ?? ''),
      'audit-log': await reportedVersion(auditUrl),
      'replay-provider': binaryVersion(pipeline.replay.process),
    };
    expect(versions).toEqual({ gateway: process.version, normalizer: process.version, 'audit-log': process.version, 'replay-provider': process.version });
  });
});
