import { execFile } from 'node:child_process';

/** Outcome of {@link runCommand}: a failing command is a value, so callers decide whether it is an error. */
export interface CommandResult {
  /** Exit code; null when the command was killed by a signal or could not be started. */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Options of {@link runCommand}. */
export interface RunCommandOptions {
  readonly timeoutMs?: number;
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** Run as this OS user (needs root); see spawn's `uid`/`gid`. */
  readonly uid?: number;
  readonly gid?: number;
}

/** A command we depend on failed; the message carries its command line and output. */
export class CommandFailedError extends Error {
  readonly code = 'COMMAND_FAILED';
  override readonly name = 'CommandFailedError';

  constructor(
    readonly commandLine: string,
    readonly result: CommandResult,
  ) {
    super(`${commandLine} failed (exit code ${String(result.code)}):\n${result.stderr}${result.stdout}`);
  }
}

/** Runs `file` with `args` to completion (default timeout 60 s) and returns its exit code and output. */
export function runCommand(file: string, args: readonly string[], options: RunCommandOptions = {}): Promise<CommandResult> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      {
        timeout: options.timeoutMs ?? 60_000,
        maxBuffer: 16 * 1024 * 1024,
        ...(options.env === undefined ? {} : { env: options.env }),
        ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
        ...(options.uid === undefined ? {} : { uid: options.uid }),
        ...(options.gid === undefined ? {} : { gid: options.gid }),
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({ code, stdout, stderr: error !== null && stderr === '' ? error.message : stderr });
      },
    );
  });
}

/** Like {@link runCommand} but throws a {@link CommandFailedError} unless the command exits with 0. */
export async function runCommandOrThrow(
  file: string,
  args: readonly string[],
  options: RunCommandOptions = {},
): Promise<CommandResult> {
  const result = await runCommand(file, args, options);
  if (result.code !== 0) {
    throw new CommandFailedError([file, ...args].join(' '), result);
  }
  return result;
}
