import { checkInvariants } from '@llm-stream/contract';
import { readInput } from '../read-input.js';

/**
 * `verify [--partial] [--projection] <events.ndjson>`: prints each broken invariant, exit 1 if any. Lines
 * that are not JSON are reported as violations of the schema rule, not as bad usage: the file is the subject.
 */
export async function verifyCommand(file: string, options: { partial: boolean; projection: boolean }): Promise<number> {
  const text = Buffer.from(await readInput(file)).toString('utf8');
  const values: unknown[] = [];
  const unparseable: string[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    try {
      values.push(JSON.parse(line));
    } catch {
      unparseable.push(`line ${String(index + 1)}: schema-valid: not valid JSON`);
    }
  });
  const violations = checkInvariants(values, options);
  const lines = [
    ...unparseable,
    ...violations.map((violation) => `event ${String(violation.index + 1)}: ${violation.rule}: ${violation.message}`),
  ];
  for (const line of lines) process.stdout.write(`${line}\n`);
  if (lines.length === 0) process.stdout.write(`ok: ${String(values.length)} events, no broken invariant\n`);
  return lines.length === 0 ? 0 : 1;
}
