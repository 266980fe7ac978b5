import { readdirSync, readFileSync } from 'node:fs';

interface ProcStat {
  readonly state: string;
  readonly parentPid: number;
}

/**
 * A /proc stat file (`/proc/<pid>/stat`, or `/proc/<pid>/task/<tid>/stat` for one thread): "pid (comm) state ppid
 * ..."; comm may hold spaces and parentheses, so split after the last ')'.
 */
function readStat(statPath: string): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(statPath, 'utf8');
  } catch {
    return undefined;
  }
  const [state = '', parent = ''] = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state, parentPid: Number(parent) };
}

/** The pids whose parent is `pid` (Linux /proc). */
export function childPids(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((candidate) => readStat(`/proc/${String(candidate)}/stat`)?.parentPid === pid);
}

/**
 * Whether `pid` no longer runs. A zombie counts as gone: in a container whose init does not reap orphans, a
 * killed process may stay a zombie forever, yet it holds no port, file or shared memory any more.
 */
export function hasProcessEnded(pid: number): boolean {
  const stat = readStat(`/proc/${String(pid)}/stat`);
  return stat === undefined || stat.state === 'Z' || stat.state === 'X';
}

/**
 * Whether every thread of `pid` is stopped (SIGSTOP). A stop takes effect when each thread next handles
 * signals, not when kill() returns: a server can still answer a request sent right after the signal.
 */
export function isProcessStopped(pid: number): boolean {
  const tasks = `/proc/${String(pid)}/task`;
  let threads: string[];
  try {
    threads = readdirSync(tasks);
  } catch {
    return false;
  }
  return threads.length > 0 && threads.every((tid) => readStat(`${tasks}/${tid}/stat`)?.state === 'T');
}

/** The pids of every process below `pid` (children, their children, ...), parents before their children (Linux /proc). */
export function descendantPids(pid: number): number[] {
  const found: number[] = [];
  for (let queue = [pid]; queue.length > 0; ) {
    const children = queue.flatMap(childPids);
    found.push(...children);
    queue = children;
  }
  return found;
}
