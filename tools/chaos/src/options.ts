import { resolve } from 'node:path';
import { FAULT_KINDS, isFaultKind, type FaultKind } from './fault-kinds.js';
import type { ChaosOptions } from './run/run-chaos.js';

/** A bad command line: exit 2 with this one line. */
export interface UsageError {
  readonly code: 'usage';
  readonly message: string;
}

export const USAGE =
  'npm run chaos -- [--minutes 5] [--streams 200] [--fault-every 10] [--seed N] [--faults a,b] [--store sqlite|postgres] ' +
  `[--burst 2000] [--drain 120] [--root <worktree>] [--out report.json] [--record run.json] [--logs <dir>]\n  fault kinds: ${FAULT_KINDS.join(', ')}`;

export interface CommandLine {
  readonly options: ChaosOptions;
  readonly out: string;
  /** Where to write the whole recorded run (the checker's input), for a replay of the check; null: not written. */
  readonly record: string | null;
}

function positive(flag: string, raw: string, allowFraction: boolean): number | UsageError {
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || (!allowFraction && !Number.isInteger(value))) {
    return { code: 'usage', message: `${flag} must be a positive ${allowFraction ? 'number' : 'integer'}, got ${JSON.stringify(raw)}` };
  }
  return value;
}

/** Parses the flags of `npm run chaos`; `root` defaults to this worktree. */
export function parseCommandLine(argv: readonly string[], defaultRoot: string): CommandLine | UsageError {
  const values = new Map<string, string>();
  for (let n = 0; n < argv.length; n += 2) {
    const flag = argv[n] ?? '';
    const value = argv[n + 1];
    if (!flag.startsWith('--') || value === undefined) return { code: 'usage', message: `expected --flag value, got ${JSON.stringify(flag)}` };
    values.set(flag.slice(2), value);
  }
  const known = ['minutes', 'streams', 'fault-every', 'seed', 'faults', 'store', 'burst', 'drain', 'root', 'out', 'record', 'logs'];
  for (const name of values.keys()) if (!known.includes(name)) return { code: 'usage', message: `unknown flag --${name}` };
  const numbers: Record<string, number> = {};
  for (const [name, fallback, fraction] of [
    ['minutes', '5', true],
    ['streams', '200', false],
    ['fault-every', '10', true],
    ['burst', '2000', false],
    ['drain', '120', true],
  ] as const) {
    const parsed = positive(`--${name}`, values.get(name) ?? fallback, fraction);
    if (typeof parsed !== 'number') return parsed;
    numbers[name] = parsed;
  }
  const seedText = values.get('seed') ?? String(Date.now() % 1_000_000);
  if (!/^\d+$/.test(seedText)) return { code: 'usage', message: `--seed must be a non-negative integer, got ${JSON.stringify(seedText)}` };
  const store = values.get('store') ?? 'sqlite';
  if (store !== 'sqlite' && store !== 'postgres') return { code: 'usage', message: `--store must be sqlite or postgres, got ${JSON.stringify(store)}` };
  const faultNames = (values.get('faults') ?? FAULT_KINDS.filter((kind) => kind !== 'postgres-restart' || store === 'postgres').join(','))
    .split(',')
    .filter((name) => name !== '');
  const faults: FaultKind[] = [];
  for (const name of faultNames) {
    if (!isFaultKind(name)) return { code: 'usage', message: `unknown fault kind ${JSON.stringify(name)}; kinds: ${FAULT_KINDS.join(', ')}` };
    faults.push(name);
  }
  const root = resolve(values.get('root') ?? defaultRoot);
  const seed = Number(seedText);
  return {
    options: {
      minutes: numbers['minutes'] ?? 5,
      streams: numbers['streams'] ?? 200,
      faultEverySeconds: numbers['fault-every'] ?? 10,
      seed,
      faults,
      store,
      root,
      burstSize: numbers['burst'] ?? 2_000,
      drainSeconds: numbers['drain'] ?? 120,
      logDir: values.has('logs') ? resolve(values.get('logs') ?? '') : null,
    },
    out: resolve(values.get('out') ?? resolve(defaultRoot, 'tmp', 'chaos', `report-${seed}.json`)),
    record: values.has('record') ? resolve(values.get('record') ?? '') : null,
  };
}
