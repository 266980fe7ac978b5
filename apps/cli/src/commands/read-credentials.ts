import { parseNatsCredentials, type NatsCredentials } from '@llm-stream/pipeline';
import { readInput } from '../read-input.js';
import { UsageError } from '../usage-error.js';

/** The NATS credentials file given with `--credentials` (what `nats-credentials` printed, kept in a Secret). */
export async function readCredentials(path: string | undefined): Promise<NatsCredentials> {
  if (path === undefined) throw new UsageError('missing --credentials <file> (made by `llm-stream nats-credentials`)');
  const parsed = parseNatsCredentials(new TextDecoder().decode(await readInput(path)));
  if (!parsed.ok) throw new UsageError(`${path}: ${parsed.error.message}`);
  return parsed.value;
}
