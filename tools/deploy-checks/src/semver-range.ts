/**
 * Does a Node.js version satisfy an `engines.node` range? The subset of node-semver's range grammar that
 * package manifests use (https://github.com/npm/node-semver#ranges): `||` alternatives of space-separated
 * comparators (`>=`, `>`, `<`, `<=`, `=`, `^`, `~`, bare versions), with `x`/`*` wildcards and partial
 * versions. Anything else is an error, not a silent pass.
 */
type Triple = readonly [number, number, number];

export interface EngineRangeError {
  readonly code: 'unsupported_range';
  readonly message: string;
}

function compare(a: Triple, b: Triple): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

export function parseVersion(text: string): Triple | null {
  const match = /^v?(\d+)\.(\d+)\.(\d+)$/.exec(text.trim());
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : null;
}

/** `22`, `22.x`, `22.12`, `22.12.0`: the given parts, wildcards dropped. */
function parsePartial(text: string): number[] | null {
  if (text === '' || text === '*' || /^[xX]$/.test(text)) return [];
  const parts = text.replace(/^v/, '').split('.');
  const numbers: number[] = [];
  for (const part of parts) {
    if (/^[xX*]$/.test(part)) break;
    if (!/^\d+$/.test(part)) return null;
    numbers.push(Number(part));
  }
  return numbers.length <= 3 ? numbers : null;
}

/** The half-open interval [low, high) a partial version covers. */
function bounds(parts: readonly number[]): { low: Triple; high: Triple | null } {
  const [a = 0, b = 0, c = 0] = parts;
  const low: Triple = [a, b, c];
  if (parts.length === 0) return { low, high: null };
  if (parts.length === 1) return { low, high: [a + 1, 0, 0] };
  if (parts.length === 2) return { low, high: [a, b + 1, 0] };
  return { low, high: [a, b, c + 1] };
}

function satisfiesComparator(version: Triple, comparator: string): boolean | EngineRangeError {
  const match = /^(>=|<=|>|<|=|\^|~)?(.*)$/.exec(comparator);
  const operator = match?.[1] ?? '';
  const parts = parsePartial(match?.[2] ?? '');
  if (parts === null) return { code: 'unsupported_range', message: `cannot read comparator ${JSON.stringify(comparator)}` };
  const { low, high } = bounds(parts);
  const atLeast = (bound: Triple): boolean => compare(version, bound) >= 0;
  const below = (bound: Triple | null): boolean => bound === null || compare(version, bound) < 0;
  switch (operator) {
    case '':
    case '=':
      return atLeast(low) && below(high);
    case '>=':
      return atLeast(low);
    case '>':
      return high !== null && atLeast(high);
    case '<':
      return compare(version, low) < 0;
    case '<=':
      return below(high);
    case '^': {
      const [a = 0, b = 0] = parts;
      const caretHigh: Triple = a > 0 || parts.length < 2 ? [a + 1, 0, 0] : b > 0 || parts.length < 3 ? [0, b + 1, 0] : [0, 0, low[2] + 1];
      return atLeast(low) && below(caretHigh);
    }
    case '~': {
      const [a = 0, b = 0] = parts;
      return atLeast(low) && below(parts.length < 2 ? [a + 1, 0, 0] : [a, b + 1, 0]);
    }
    default:
      return { code: 'unsupported_range', message: `unknown operator in ${comparator}` };
  }
}

export function satisfies(version: string, range: string): boolean | EngineRangeError {
  const parsed = parseVersion(version);
  if (parsed === null) return { code: 'unsupported_range', message: `not a version: ${version}` };
  for (const alternative of range.split('||')) {
    // `>= 22.x` is written with a space in some manifests.
    const comparators = alternative.trim().replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1').split(/\s+/).filter((item) => item !== '');
    if (comparators.includes('-')) return { code: 'unsupported_range', message: `hyphen ranges are not supported: ${range}` };
    let all = true;
    for (const comparator of comparators.length === 0 ? ['*'] : comparators) {
      const result = satisfiesComparator(parsed, comparator);
      if (typeof result === 'object') return result;
      all &&= result;
    }
    if (all) return true;
  }
  return false;
}
