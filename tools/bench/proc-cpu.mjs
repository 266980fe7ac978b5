// CPU time of a process from /proc, for the benchmarks' per-event figures (the figure a noisy machine shakes least).
import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ: 100 on Linux (sysconf(_SC_CLK_TCK))

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat (fields 14 and 15, in ticks). */
export function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}
