// CPU time of benchmarked processes, from /proc (Linux): the figure least shaken by a noisy machine.
import { readdirSync, readFileSync } from 'node:fs';

/** USER_HZ: 100 on Linux (sysconf(_SC_CLK_TCK)). */
const TICKS_PER_SECOND = 100;

/** The fields of /proc/<pid>/stat after "pid (comm)" (comm may hold spaces and parentheses), or undefined. */
function statFields(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return { comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), fields: stat.slice(stat.lastIndexOf(')') + 2).split(' ') };
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds (user + system) `pid` has used so far, with its reaped children's (cutime + cstime: a
 * postmaster's exited backends count).
 */
export function cpuSeconds(pid) {
  const stat = statFields(pid);
  if (stat === undefined) return 0;
  const [utime, stime, cutime, cstime] = [11, 12, 13, 14].map((index) => Number(stat.fields[index] ?? 0));
  return (utime + stime + cutime + cstime) / TICKS_PER_SECOND;
}

/** `pid` and every live descendant (a PostgreSQL postmaster and its backends). */
export function processTree(pid) {
  const parents = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statFields(entry);
    if (stat !== undefined) parents.set(Number(entry), Number(stat.fields[1]));
  }
  const tree = [pid];
  for (let index = 0; index < tree.length; index += 1) {
    for (const [child, parent] of parents) if (parent === tree[index]) tree.push(child);
  }
  return tree;
}

/** The children of this process whose command name is `comm` (the postmaster the bench started). */
export function childrenNamed(comm) {
  return processTree(process.pid).filter((pid) => pid !== process.pid && statFields(pid)?.comm === comm && Number(statFields(pid)?.fields[1]) === process.pid);
}

/** CPU seconds of `pid` and its live descendants (a postmaster and its backends). */
export function treeCpuSeconds(pid) {
  return processTree(pid).reduce((sum, member) => sum + cpuSeconds(member), 0);
}

/** This process's own CPU seconds (its exited children, earlier audit-log runs, not included). */
export function ownCpuSeconds() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

/** Each group's CPU seconds so far; a group is a function returning them (process trees change). */
export function cpuSnapshot(groups) {
  return Object.fromEntries(Object.entries(groups).map(([name, seconds]) => [name, seconds()]));
}

/** "audit-log 21.3 + nats-server 5.0 = 26.3 us per event" between two snapshots. */
export function cpuPerItem(before, after, count, unit) {
  const parts = Object.keys(before).map((name) => [name, ((after[name] - before[name]) * 1e6) / count]);
  const total = parts.reduce((sum, [, us]) => sum + us, 0);
  return { total, text: `${parts.map(([name, us]) => `${name} ${us.toFixed(1)}`).join(' + ')} = ${total.toFixed(1)} us per ${unit}` };
}
