import { spawn, type ChildProcess } from 'node:child_process';
import { Socket } from 'node:net';

/**
 * What must happen to a resource if the test process ends without stopping it, in this order: SIGKILL `pid`,
 * run each command synchronously (e.g. `pg_ctl stop -m immediate`), remove each path recursively.
 */
export interface CleanupAction {
  readonly pid?: number;
  readonly commands?: readonly (readonly string[])[];
  readonly removePaths?: readonly string[];
}

/**
 * The reaper: a detached node process that holds the cleanup actions of live resources and runs them when its
 * stdin closes, i.e. when the test process is gone however it ended (even SIGKILL), or when the parent closes the
 * pipe with nothing left registered. It is plain CommonJS run with `node -e`, so it needs no build step.
 */
const REAPER_SOURCE = String.raw`
const { spawnSync } = require('node:child_process');
const { rmSync } = require('node:fs');
const actions = new Map();
let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  pending += chunk;
  let newline;
  while ((newline = pending.indexOf('\n')) !== -1) {
    const message = JSON.parse(pending.slice(0, newline));
    pending = pending.slice(newline + 1);
    if (message.action) actions.set(message.id, message.action); else actions.delete(message.id);
  }
});
process.stdin.on('close', () => {
  for (const action of actions.values()) {
    if (action.pid) { try { process.kill(action.pid, 'SIGKILL'); } catch {} }
    for (const command of action.commands || []) {
      spawnSync(command[0], command.slice(1), { stdio: 'ignore', timeout: 30000 });
    }
    for (const path of action.removePaths || []) { try { rmSync(path, { recursive: true, force: true }); } catch {} }
  }
  process.exit(0);
});
`;

/** Handle on a running reaper. */
export interface CleanupReaper {
  set(id: number, action: CleanupAction): void;
  remove(id: number): void;
  /** Closes the pipe; the reaper then runs whatever is still registered and exits. */
  close(): void;
}

/**
 * Starts a reaper. Neither the process nor its pipe keeps the test process alive (both are unref'd), and it runs
 * in its own session so a Ctrl-C sent to the test's process group does not kill it before it has cleaned up.
 */
export function startCleanupReaper(): CleanupReaper {
  const child: ChildProcess = spawn(process.execPath, ['-e', REAPER_SOURCE], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  child.on('error', () => {
    // Best effort: without a reaper the process 'exit' hook still cleans up on a normal exit.
  });
  child.unref();
  const stdin = child.stdin;
  stdin?.on('error', () => {
    // The reaper died (EPIPE); nothing better to do than keep going.
  });
  if (stdin instanceof Socket) {
    stdin.unref();
  }
  const send = (message: object): void => {
    if (stdin?.writable === true) {
      stdin.write(`${JSON.stringify(message)}\n`);
    }
  };
  return {
    set: (id, action) => {
      send({ id, action });
    },
    remove: (id) => {
      send({ id });
    },
    close: () => {
      stdin?.end();
    },
  };
}
