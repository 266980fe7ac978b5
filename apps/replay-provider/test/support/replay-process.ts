import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { freePort } from './free-port.js';

/** The built entry point, as `npm start` and the gateway's tests run it. */
export const MAIN = resolve(__dirname, '../../dist/main.js');
export const TRANSCRIPTS_DIR = resolve(__dirname, '../../../../conformance/transcripts');

export interface ReplayServer {
  readonly url: string;
  readonly child: ChildProcess;
  readonly stdoutLines: string[];
  /** SIGTERM, then the exit code once the process is gone. */
  stop(): Promise<number | null>;
}

/** Starts `node dist/main.js` on a free port and resolves when it printed its `listening` line. */
export async function startReplay(env: Readonly<Record<string, string>> = {}): Promise<ReplayServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN], {
    env: { ...inheritedEnv(), REPLAY_PORT: String(port), REPLAY_HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdoutLines: string[] = [];
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolveExit) => {
    child.once('exit', (code) => {
      resolveExit(code);
    });
  });
  const url = await new Promise<string>((resolveUrl, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      stdoutLines.push(line);
      const parsed = JSON.parse(line) as { msg?: string; url?: string };
      if (parsed.msg === 'listening' && parsed.url !== undefined) resolveUrl(parsed.url);
    });
    void exited.then((code) => {
      reject(new Error(`replay provider exited with ${code} before listening: ${stderr}`));
    });
  });
  return {
    url,
    child,
    stdoutLines,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

export interface ExitResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the server expecting it to exit by itself (bad configuration). */
export function runToExit(env: Readonly<Record<string, string>>): Promise<ExitResult> {
  const child = spawn(process.execPath, [MAIN], { env: { ...inheritedEnv(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolveExit) => {
    child.once('close', (code) => {
      resolveExit({ code, stdout, stderr });
    });
  });
}

/** The test process's environment without any REPLAY_* variable, so each test sets exactly what it means. */
function inheritedEnv(): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('REPLAY_')));
}
