import { readInput } from '../read-input.js';
import { loadEvents, parseInputFormat, type NormalizeOptions } from './load-events.js';

/** `normalize --provider <p> <file>`: the contract events, one JSON object per line. */
export async function normalizeCommand(provider: string | undefined, file: string, options: NormalizeOptions): Promise<number> {
  const events = loadEvents(parseInputFormat(provider), await readInput(file), options);
  process.stdout.write(events.map((event) => `${JSON.stringify(event)}\n`).join(''));
  return 0;
}
