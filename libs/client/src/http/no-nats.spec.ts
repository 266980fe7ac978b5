import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const DIST = resolve(__dirname, '..', '..', 'dist');

/** Every module specifier of a built ES module (static imports and re-exports, and dynamic imports). */
function specifiers(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    found.push((match[1] ?? match[2] ?? match[3])!);
  }
  return found;
}

/** The packages the built entry point reaches, following its relative imports through dist. */
function packagesReachedFrom(entry: string): { packages: Set<string>; files: Set<string> } {
  const packages = new Set<string>();
  const files = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    for (const specifier of specifiers(readFileSync(file, 'utf8'))) {
      if (specifier.startsWith('.')) queue.push(join(dirname(file), specifier));
      else packages.add(specifier);
    }
  }
  return { packages, files };
}

describe('@llm-stream/client/http', () => {
  it('reaches no NATS module: only the contract, eventsource-parser and node built-ins, through every import of its built files', () => {
    const entry = join(DIST, 'http', 'index.js');
    expect(existsSync(entry)).toBe(true);
    const { packages, files } = packagesReachedFrom(entry);
    // The walk itself must see something, or the check could never fail.
    expect(files.size).toBeGreaterThan(5);
    expect([...files].some((file) => file.endsWith('stream-outcome.js'))).toBe(true);
    expect([...packages].sort()).toEqual(['@llm-stream/contract', 'eventsource-parser']);
  });

  it('the walk finds NATS when it is there: the main entry point', () => {
    const { packages } = packagesReachedFrom(join(DIST, 'index.js'));
    expect([...packages].some((name) => name.startsWith('@nats-io/'))).toBe(true);
  });
});
