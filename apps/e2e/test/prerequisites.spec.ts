import { join } from 'node:path';
import { repoRoot, startProcess, type ManagedProcess } from '@llm-stream/testing';

/** `npm test` first checks the programs outside npm that the suites need, and says how to install each missing one. */
function check(env: Record<string, string>): ManagedProcess {
  return startProcess(process.execPath, [join(repoRoot(), 'tools/prerequisites/check-prerequisites.mjs')], { name: 'prerequisites', cwd: repoRoot(), env });
}

describe('the prerequisites check', () => {
  it('names what it found on this machine', async () => {
    const run = check({});
    expect(await run.waitForExit(30_000)).toEqual({ code: 0, signal: null });
    expect(run.lines).toHaveLength(1);
    expect(run.lines[0]).toMatch(new RegExp(`^\\[prerequisites\\] node ${process.version.replace(/\./g, '\\.')}; nats-server v\\d+\\.\\d+\\.\\d+ .*; pg_ctl \\(PostgreSQL\\) \\d+.*; kubectl .* with kustomize v5\\.[^;]*; promtool \\d+\\.\\d+[^;]*; Chromium \\d+`));
  });

  it('lists every missing program with what needs it and how to install it, and fails', async () => {
    const run = check({ NATS_SERVER_BIN: '/nonexistent/nats-server', PG_BIN_DIR: '/nonexistent', KUBECTL: '/nonexistent/kubectl', CHROMIUM_BIN: '/nonexistent/chromium' });
    expect(await run.waitForExit(30_000)).toEqual({ code: 1, signal: null });
    expect(run.lines).toEqual([
      '[prerequisites] 4 missing; npm test needs them:',
      '- nats-server with JetStream (the bus suites start their own servers): NATS_SERVER_BIN=/nonexistent/nats-server is not an executable file',
      '  install: apt-get install nats-server (Debian), or set NATS_SERVER_BIN to the binary',
      '- PostgreSQL server binaries initdb and pg_ctl (the audit-store suites start a private cluster): PG_BIN_DIR=/nonexistent holds no executable pg_ctl',
      '  install: apt-get install postgresql (Debian), or set PG_BIN_DIR to the folder holding initdb and pg_ctl',
      '- kubectl with kustomize v5 (the deploy checks render deploy/overlays): /nonexistent/kubectl could not be run',
      "  install: install kubectl 1.27 or newer (it embeds kustomize v5; Debian's kubernetes-client is too old), or set KUBECTL",
      "- Debian's chromium (the console suite drives /usr/bin/chromium with playwright-core): /nonexistent/chromium could not be run",
      '  install: apt-get install --no-install-recommends chromium (Debian), or set CHROMIUM_BIN',
    ]);
  });
});
