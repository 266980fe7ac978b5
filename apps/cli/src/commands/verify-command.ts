import { checkInvariants } from '@llm-stream/contract';
import { readInput } from '../read-input.js';
import { UsageError } from '../usage-error.js';

/**
 * `verify [--partial] [--projection] <events.ndjson>`: prints each broken invariant, exit 1 if any. A file that
 * is not NDJSON (a line that is not JSON) is unreadable input, not a stream with broken invariants: one line and
 * exit 2 (UsageError), naming the first such line.
 */
export async function verifyCommand(file: string, options: { partial: boolean; projection: boolean }): Promise<number> {
  const text = Buffer.from(await readInput(file)).toString('utf8');
  const values: unknown[] = [];
  const lines = text.split('\n');
  let unparseable = 0;
  let firstUnparseable = 0;
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    try {
      values.push(JSON.parse(line));
    } catch {
      unparseable += 1;
      if (firstUnparseable === 0) firstUnparseable = index + 1;
    }
  });
  if (unparseable > 0) {
    throw new UsageError(`${file === '-' ? 'standard input' : file} is not NDJSON: line ${String(firstUnparseable)} is not valid JSON (${String(unparseable)} of ${String(values.length + unparseable)} lines are not)`);
  }
  const violations = checkInvariants(values, options);
  for (const violation of violations) process.stdout.write(`event ${String(violation.index + 1)}: ${violation.rule}: ${violation.message}\n`);
  if (violations.length === 0) process.stdout.write(`ok: ${String(values.length)} events, no broken invariant\n`);
  return violations.length === 0 ? 0 : 1;
}
