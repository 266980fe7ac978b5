import { spawn } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';
import { Socket } from 'node:net';
import { LineCapture } from './line-capture.js';
import { registerCleanup } from './process-cleanup.js';

/** How a process ended: exactly one of `code` and `signal` is non-null. */
export interface ProcessExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** Options of {@link startProcess}. */
export interface StartProcessOptions {
  /** Shown in messages and in {@link ManagedProcess.describe} ("gateway", "normalizer"). */
  readonly name: string;
  /** Merged over the test's environment; a variable set to `undefined` is removed from the child's. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly cwd?: string;
  /** Output lines kept (oldest dropped first); default 5 000. */
  readonly maxLines?: number;
  /**
   * Every output line is also appended to this file (created when missing; a later process may append to the
   * same file): the whole log of a long run, where `lines` keeps only the last `maxLines`.
   */
  readonly logFile?: string;
}

/** A child process started by {@link startProcess}. */
export interface ManagedProcess {
  readonly name: string;
  readonly pid: number;
  /** stdout and stderr lines in arrival order, without line terminators, capped at `maxLines`. */
  readonly lines: readonly string[];
  /** How the process ended, once it has (and its output is captured). */
  readonly exit: ProcessExit | undefined;
  /**
   * Resolves with the first captured line (already captured ones included) that matches; rejects when the
   * process ends without printing one, or after `timeoutMs` (default 10 000), with {@link describe} attached.
   */
  waitForLine(match: RegExp | ((line: string) => boolean), timeoutMs?: number): Promise<string>;
  /** Resolves when the process has ended and its output is captured; rejects after `timeoutMs` (default 10 000). */
  waitForExit(timeoutMs?: number): Promise<ProcessExit>;
  /** Sends `signal` (default SIGTERM), then SIGKILL if the process is still alive after `timeoutMs` (default 5 000). */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<ProcessExit>;
  /** SIGKILL, then waits for the end. */
  kill(): Promise<ProcessExit>;
  /** Name, pid, state and the last `lineCount` (default 50) output lines: made for test failure messages. */
  describe(lineCount?: number): string;
}

/** Error of {@link startProcess} and of the waits on a {@link ManagedProcess}. */
export class ManagedProcessError extends Error {
  override readonly name = 'ManagedProcessError';

  constructor(
    readonly code: 'SPAWN_FAILED' | 'LINE_TIMEOUT' | 'EXITED_BEFORE_LINE' | 'EXIT_TIMEOUT',
    message: string,
  ) {
    super(message);
  }
}

const DEFAULT_MAX_LINES = 5_000;
const OUTPUT_DRAIN_BOUND_MS = 2_000;

function childEnvironment(overrides: Readonly<Record<string, string | undefined>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) {
      // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- removing a variable is the point
      delete env[key];
    } else {
      env[key] = value;
    }
  }
  return env;
}

function withTimeout<T>(promise: Promise<T>, timeoutMs: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      reject(onTimeout());
    }, timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => {
    clearTimeout(timer);
  });
}

/**
 * Starts `command` with `args` as a child process whose output is captured line by line. The child is killed
 * when the test process ends (see {@link registerCleanup}) if the test did not stop it.
 *
 * Throws a {@link ManagedProcessError} (`SPAWN_FAILED`) when the command cannot be started at all.
 */
export function startProcess(command: string, args: readonly string[], options: StartProcessOptions): ManagedProcess {
  const { name } = options;
  const child = spawn(command, args, {
    env: childEnvironment(options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  });
  let spawnError: Error | undefined;
  // Without a listener a spawn failure ('error' on the next tick) would crash the test process.
  child.on('error', (error) => {
    spawnError = error;
  });
  const pid = child.pid;
  if (pid === undefined) {
    throw new ManagedProcessError('SPAWN_FAILED', `${name}: cannot start ${command} ${args.join(' ')}`);
  }
  const cleanup = registerCleanup({ pid });
  const capture = new LineCapture(options.maxLines ?? DEFAULT_MAX_LINES);
  const outputDone = Promise.all([child.stdout, child.stderr].map((stream) => capture.attach(stream)));
  const { logFile } = options;
  // Synchronous appends keep the file in arrival order and complete however the test process ends.
  const logFd = logFile === undefined ? undefined : openSync(logFile, 'a');
  if (logFd !== undefined) {
    capture.onLine((line) => {
      writeSync(logFd, `${line}\n`);
    });
    void outputDone.then(() => {
      closeSync(logFd);
    });
  }
  // A forgotten child must not keep the test process alive (jest would hang); the cleanup kills it on exit.
  child.unref();
  for (const stream of [child.stdout, child.stderr]) {
    if (stream instanceof Socket) {
      stream.unref();
    }
  }
  let exit: ProcessExit | undefined;
  // Settles once the process has exited and (within a bound, as a grandchild may hold the pipes open) every line
  // it printed is captured: 'exit' can come before the last output chunks are read.
  const exited = new Promise<ProcessExit>((resolve) => {
    child.once('exit', (code, signal) => {
      const info = { code, signal };
      cleanup.release();
      let timer: NodeJS.Timeout | undefined;
      const drained = new Promise<void>((done) => {
        timer = setTimeout(done, OUTPUT_DRAIN_BOUND_MS).unref();
      });
      void Promise.race([outputDone, drained]).then(() => {
        clearTimeout(timer);
        exit = info;
        resolve(info);
      });
    });
  });

  const describe = (lineCount = 50): string => {
    const state =
      exit === undefined ? 'running' : `exited with ${exit.signal === null ? `code ${exit.code}` : `signal ${exit.signal}`}`;
    const dropped = capture.droppedLines > 0 ? `, ${capture.droppedLines} earlier lines dropped` : '';
    const error = spawnError === undefined ? '' : `, error: ${spawnError.message}`;
    const shown = Math.min(lineCount, capture.lines.length);
    return `${name} (pid ${pid}, ${state}${error}${dropped}); last ${shown} lines:\n${capture.tail(lineCount)}`;
  };

  const waitForExit = (timeoutMs = 10_000): Promise<ProcessExit> =>
    withTimeout(
      exited,
      timeoutMs,
      () => new ManagedProcessError('EXIT_TIMEOUT', `${name} did not exit within ${timeoutMs} ms\n${describe()}`),
    );

  const waitForLine = (match: RegExp | ((line: string) => boolean), timeoutMs = 10_000): Promise<string> => {
    const matches = typeof match === 'function' ? match : (line: string) => match.test(line);
    const seen = capture.lines.find(matches);
    if (seen !== undefined) {
      return Promise.resolve(seen);
    }
    let unsubscribe = (): void => undefined;
    const found = new Promise<string>((resolve, reject) => {
      unsubscribe = capture.onLine((line) => {
        if (matches(line)) {
          resolve(line);
        }
      });
      void exited.then(() => {
        reject(new ManagedProcessError('EXITED_BEFORE_LINE', `${name} ended before printing ${String(match)}\n${describe()}`));
      });
    });
    return withTimeout(
      found,
      timeoutMs,
      () => new ManagedProcessError('LINE_TIMEOUT', `${name} printed no line matching ${String(match)} within ${timeoutMs} ms\n${describe()}`),
    ).finally(unsubscribe);
  };

  const signalIfRunning = (signal: NodeJS.Signals): void => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill(signal);
    }
  };

  const stop = async (signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 5_000): Promise<ProcessExit> => {
    signalIfRunning(signal);
    try {
      return await waitForExit(timeoutMs);
    } catch {
      signalIfRunning('SIGKILL');
      return exited;
    }
  };

  return {
    name,
    pid,
    lines: capture.lines,
    get exit() {
      return exit;
    },
    waitForLine,
    waitForExit,
    stop,
    kill: () => {
      signalIfRunning('SIGKILL');
      return exited;
    },
    describe,
  };
}
