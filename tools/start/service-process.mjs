// One child process of the quick start: its output goes to <logs>/<name>.log (and to the terminal with
// QUICKSTART_VERBOSE), its last lines are kept for the failure report, and `exited` settles when it stops.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';

const TAIL_LINES = 20;

export function startService({ name, command, args, env, cwd, logs, verbose }) {
  const logFile = join(logs, `${name}.log`);
  const log = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const tail = [];
  const prefix = name.padEnd(15);
  for (const stream of [child.stdout, child.stderr]) {
    let buffered = '';
    stream.on('data', (chunk) => {
      log.write(chunk);
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        tail.push(line);
        if (tail.length > TAIL_LINES) tail.shift();
        if (verbose) process.stdout.write(`${prefix}| ${line}\n`);
      }
    });
  }
  const exited = new Promise((resolve) => {
    child.on('error', (error) => resolve({ code: null, signal: null, error }));
    child.on('exit', (code, signal) => resolve({ code, signal, error: null }));
  });
  void exited.then(() => log.end());
  return {
    name,
    logFile,
    exited,
    lastLines: () => [...tail],
    running: () => child.exitCode === null && child.signalCode === null,
    stop: (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
