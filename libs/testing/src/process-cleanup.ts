import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { startCleanupReaper, type CleanupAction, type CleanupReaper } from './cleanup-reaper.js';

export type { CleanupAction } from './cleanup-reaper.js';

/** A registered cleanup: replace its action (the pid changes on restart) or release it once done by hand. */
export interface CleanupRegistration {
  update(action: CleanupAction): void;
  release(): void;
}

const actions = new Map<number, CleanupAction>();
let nextId = 1;
let reaper: CleanupReaper | undefined;
let exitHookInstalled = false;

function runSync(action: CleanupAction): void {
  if (action.pid !== undefined) {
    try {
      process.kill(action.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  for (const [file, ...args] of action.commands ?? []) {
    if (file !== undefined) {
      spawnSync(file, args, { stdio: 'ignore', timeout: 30_000 });
    }
  }
  for (const path of action.removePaths ?? []) {
    rmSync(path, { recursive: true, force: true });
  }
}

function runAllSync(): void {
  for (const action of actions.values()) {
    runSync(action);
  }
  actions.clear();
}

/**
 * Makes sure a child process (and its temporary files) does not outlive the test process.
 *
 * Two mechanisms, because neither suffices alone: a process 'exit' hook kills children synchronously on a normal
 * exit of a plain node process; but under jest the global `process` is a sandbox copy whose 'exit' never fires,
 * and a runner killed with SIGKILL runs no hook at all, so a detached reaper process also holds the actions and
 * runs them when our end of its pipe closes. The reaper only lives while something is registered.
 */
export function registerCleanup(action: CleanupAction): CleanupRegistration {
  if (!exitHookInstalled) {
    process.once('exit', runAllSync);
    exitHookInstalled = true;
  }
  reaper ??= startCleanupReaper();
  const id = nextId++;
  actions.set(id, action);
  reaper.set(id, action);
  return {
    update: (next) => {
      if (actions.has(id)) {
        actions.set(id, next);
        reaper?.set(id, next);
      }
    },
    release: () => {
      if (!actions.delete(id)) {
        return;
      }
      reaper?.remove(id);
      if (actions.size === 0) {
        reaper?.close();
        reaper = undefined;
      }
    },
  };
}
