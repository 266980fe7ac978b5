import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCleanupReaper } from './cleanup-reaper.js';
import { waitFor } from './wait-for.js';

function sleeper(): ChildProcess {
  return spawn('sleep', ['60'], { stdio: 'ignore' });
}

const ended = (child: ChildProcess): boolean => child.exitCode !== null || child.signalCode !== null;

describe('startCleanupReaper', () => {
  const children: ChildProcess[] = [];
  const dirs: string[] = [];

  afterAll(() => {
    children.filter((child) => !ended(child)).forEach((child) => child.kill('SIGKILL'));
    dirs.forEach((dir) => {
      rmSync(dir, { recursive: true, force: true });
    });
  });

  it('when its pipe closes (the test process is gone), kills, runs and removes what is still registered', async () => {
    const abandoned = sleeper();
    const released = sleeper();
    children.push(abandoned, released);
    const abandonedDir = mkdtempSync(join(tmpdir(), 'reaper-spec-'));
    const releasedDir = mkdtempSync(join(tmpdir(), 'reaper-spec-'));
    dirs.push(abandonedDir, releasedDir);
    const marker = join(abandonedDir, '..', `${abandonedDir.split('/').at(-1) ?? ''}-command-ran`);
    dirs.push(marker);
    const reaper = startCleanupReaper();

    reaper.set(1, { pid: abandoned.pid!, commands: [['touch', marker]], removePaths: [abandonedDir] });
    reaper.set(2, { pid: released.pid!, removePaths: [releasedDir] });
    reaper.remove(2);
    reaper.close();

    await waitFor(() => ended(abandoned) && !existsSync(abandonedDir) && existsSync(marker), {
      description: 'the reaper to kill the abandoned process, run its command and remove its dir',
    });
    expect(abandoned.signalCode).toBe('SIGKILL');
    expect(ended(released)).toBe(false);
    expect(existsSync(releasedDir)).toBe(true);
  });
});
