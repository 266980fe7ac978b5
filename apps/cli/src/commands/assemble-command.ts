import { assemble } from '@llm-stream/contract';
import { readInput } from '../read-input.js';
import { loadEvents, parseInputFormat, type NormalizeOptions } from './load-events.js';

/** `assemble --provider <p> <file>`: the assembled result as one JSON object. */
export async function assembleCommand(provider: string | undefined, file: string, options: NormalizeOptions): Promise<number> {
  const events = loadEvents(parseInputFormat(provider), await readInput(file), options);
  process.stdout.write(`${JSON.stringify(assemble(events))}\n`);
  return 0;
}
