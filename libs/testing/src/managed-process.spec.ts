import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManagedProcessError, startProcess, type ManagedProcess } from './managed-process.js';
import { hasProcessEnded } from './process-tree.js';

/** A node child running `source`: the tests drive real processes, not stubs. */
function node(source: string, options: Partial<Parameters<typeof startProcess>[2]> = {}): ManagedProcess {
  return startProcess(process.execPath, ['-e', source], { name: 'fixture', ...options });
}

describe('startProcess', () => {
  const started: ManagedProcess[] = [];
  const track = (child: ManagedProcess): ManagedProcess => {
    started.push(child);
    return child;
  };

  afterAll(async () => {
    await Promise.all(started.map((child) => child.kill()));
  });

  it('captures stdout and stderr lines and the exit code', async () => {
    const child = track(node("process.stdout.write('one\\r\\ntw'); process.stdout.write('o\\n'); console.error('to stderr'); process.stdout.write('unterminated'); process.exitCode = 3"));

    const exit = await child.waitForExit();

    expect(exit).toEqual({ code: 3, signal: null });
    expect([...child.lines].sort()).toEqual(['one', 'to stderr', 'two', 'unterminated']);
    expect(child.exit).toEqual(exit);
  });

  it('waitForLine resolves with a line printed later, by RegExp or predicate, and with lines already printed', async () => {
    const child = track(node("console.log('booting'); setTimeout(() => console.log('listening on 4321'), 50); setInterval(() => undefined, 1000)"));

    const listening = await child.waitForLine(/listening on (\d+)/);
    const booting = await child.waitForLine((line) => line.startsWith('boot'));

    expect(listening).toBe('listening on 4321');
    expect(booting).toBe('booting');
  });

  it('waitForLine rejects with the output when the process ends without the line', async () => {
    const child = track(node("console.log('fatal: missing config'); process.exit(2)"));

    await expect(child.waitForLine(/ready/)).rejects.toMatchObject({
      code: 'EXITED_BEFORE_LINE',
      message: expect.stringContaining('fatal: missing config'),
    });
  });

  it('waitForLine rejects after the timeout with the process described', async () => {
    const child = track(node("console.log('still starting'); setInterval(() => undefined, 1000)"));
    // The bound under test starts once the child is up: a loaded machine may take longer than it to start node.
    await child.waitForLine(/still starting/);

    await expect(child.waitForLine(/ready/, 200)).rejects.toMatchObject({
      code: 'LINE_TIMEOUT',
      message: expect.stringMatching(/no line matching \/ready\/ within 200 ms\nfixture \(pid \d+, running\); last 1 lines:\nstill starting/),
    });
  });

  it('stop sends SIGTERM and returns how the process ended', async () => {
    const child = track(node("console.log('up'); setInterval(() => undefined, 1000)"));
    await child.waitForLine(/up/);

    expect(await child.stop()).toEqual({ code: null, signal: 'SIGTERM' });
  });

  it('stop escalates to SIGKILL when the process ignores the signal', async () => {
    const child = track(node("process.on('SIGTERM', () => console.log('ignoring SIGTERM')); console.log('up'); setInterval(() => undefined, 1000)"));
    await child.waitForLine(/up/);

    const exit = await child.stop('SIGTERM', 300);

    expect(exit).toEqual({ code: null, signal: 'SIGKILL' });
    expect(child.lines).toContain('ignoring SIGTERM');
    expect(hasProcessEnded(child.pid)).toBe(true);
  });

  it('kill sends SIGKILL', async () => {
    const child = track(node("console.log('up'); setInterval(() => undefined, 1000)"));
    await child.waitForLine(/up/);

    expect(await child.kill()).toEqual({ code: null, signal: 'SIGKILL' });
    expect(child.describe()).toMatch(/^fixture \(pid \d+, exited with signal SIGKILL\)/);
  });

  it('merges env over the parent environment and removes variables set to undefined', async () => {
    process.env['MANAGED_PROCESS_SPEC_INHERITED'] = 'inherited';
    process.env['MANAGED_PROCESS_SPEC_REMOVED'] = 'present';
    try {
      const child = track(
        node(
          "console.log([process.env.MANAGED_PROCESS_SPEC_INHERITED, process.env.MANAGED_PROCESS_SPEC_SET, String(process.env.MANAGED_PROCESS_SPEC_REMOVED)].join(' '), process.cwd())",
          { env: { MANAGED_PROCESS_SPEC_SET: 'set', MANAGED_PROCESS_SPEC_REMOVED: undefined }, cwd: '/' },
        ),
      );

      await child.waitForExit();

      expect(child.lines).toEqual(['inherited set undefined /']);
    } finally {
      delete process.env['MANAGED_PROCESS_SPEC_INHERITED'];
      delete process.env['MANAGED_PROCESS_SPEC_REMOVED'];
    }
  });

  it('keeps only the last maxLines lines and describes the last 50 by default', async () => {
    const child = track(node('for (let i = 1; i <= 200; i++) console.log(`line ${i}`)', { maxLines: 100 }));

    await child.waitForExit();

    expect(child.lines).toHaveLength(100);
    expect(child.lines[0]).toBe('line 101');
    const described = child.describe().split('\n');
    expect(described[0]).toMatch(/exited with code 0, 100 earlier lines dropped\); last 50 lines:$/);
    expect(described.slice(1)).toEqual(Array.from({ length: 50 }, (_, i) => `line ${151 + i}`));
  });

  it('appends every line to logFile, across processes, beyond maxLines', async () => {
    const logFile = join(mkdtempSync(join(tmpdir(), 'managed-process-log-')), 'service.log');
    await track(node('for (let i = 1; i <= 200; i++) console.log(`first ${i}`)', { maxLines: 10, logFile })).waitForExit();
    await track(node("console.log('second 1'); console.error('second 2')", { logFile })).waitForExit();

    const written = readFileSync(logFile, 'utf8').split('\n');

    expect(written.slice(0, 200)).toEqual(Array.from({ length: 200 }, (_, i) => `first ${i + 1}`));
    expect(written.slice(200).sort()).toEqual(['', 'second 1', 'second 2']);
  });

  it('throws SPAWN_FAILED for a command that does not exist', () => {
    const start = (): ManagedProcess => startProcess('/nonexistent/binary', [], { name: 'ghost' });

    expect(start).toThrow(ManagedProcessError);
    expect(start).toThrow('ghost: cannot start /nonexistent/binary');
  });
});
