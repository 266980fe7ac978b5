import { setTimeout as sleep } from 'node:timers/promises';
import { jetstreamManager } from '@nats-io/jetstream';
import { AuthorizationError } from '@nats-io/nats-core';
import { STREAM_NAMES, assertNever } from '@llm-stream/contract';
import { connectNats, missingPipelineStreams } from '@llm-stream/pipeline';
import { UsageError } from '../usage-error.js';
import { natsEnvironment, type NatsEnvironment } from './nats-environment.js';

/** How often a waiting check asks again. */
const RETRY_INTERVAL_MS = 1_000;

/** One look at the server: the streams are there, some are missing, the server cannot be asked, or it refuses us. */
type StreamsCheck =
  | { readonly state: 'ready' }
  | { readonly state: 'missing'; readonly streams: readonly string[] }
  | { readonly state: 'unreachable'; readonly message: string }
  | { readonly state: 'refused'; readonly message: string };

async function checkOnce(nats: NatsEnvironment): Promise<StreamsCheck> {
  let nc;
  try {
    nc = await connectNats({ ...nats, name: `llm-stream-check-streams-${nats.user ?? 'anonymous'}`, maxReconnectAttempts: 0 });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // A wrong password does not heal by waiting: the pod's logs must say so at once.
    return error instanceof AuthorizationError ? { state: 'refused', message } : { state: 'unreachable', message };
  }
  try {
    const missing = await missingPipelineStreams(await jetstreamManager(nc));
    return missing.length === 0 ? { state: 'ready' } : { state: 'missing', streams: missing };
  } catch (error) {
    return { state: 'unreachable', message: error instanceof Error ? error.message : String(error) };
  } finally {
    await nc.close();
  }
}

function describe(check: Exclude<StreamsCheck, { state: 'ready' }>): string {
  switch (check.state) {
    case 'missing':
      return `the JetStream streams ${check.streams.join(', ')} do not exist yet (the operator step \`llm-stream provision\` creates them)`;
    case 'unreachable':
      return `NATS does not answer: ${check.message}`;
    case 'refused':
      return `NATS refuses the connection: ${check.message} (check NATS_USER and NATS_PASSWORD against the server's credentials)`;
    default:
      return assertNever(check);
  }
}

function waitSeconds(value: string | undefined): number {
  if (value === undefined) return 0;
  if (!/^\d+$/.test(value) || Number(value) > 86_400) throw new UsageError(`--wait must be a number of seconds from 0 to 86400, got ${JSON.stringify(value)}`);
  return Number(value);
}

/**
 * `check-streams [--wait <seconds>]`: whether the pipeline's streams exist, as the service named by NATS_USER
 * sees them (NATS_URL, NATS_PASSWORD, NATS_TLS_* as the services read them). Creates nothing. With --wait it
 * asks again every second until they do or the time is up: what a service pod's init container runs, so that
 * the service starts only once the provisioning Job has created them (a service as a NATS user exits on
 * `streams_missing`). Exit 0 when they exist; 1 when they do not, the server does not answer or refuses.
 */
export async function checkStreamsCommand(wait: string | undefined, env: NodeJS.ProcessEnv): Promise<number> {
  const deadline = Date.now() + waitSeconds(wait) * 1000;
  const nats = natsEnvironment(env);
  let reported = '';
  for (;;) {
    const check = await checkOnce(nats);
    if (check.state === 'ready') {
      process.stdout.write(`the JetStream streams ${Object.values(STREAM_NAMES).join(', ')} exist on ${nats.servers.join(',')}\n`);
      return 0;
    }
    const reason = describe(check);
    if (check.state === 'refused' || Date.now() >= deadline) {
      process.stderr.write(`llm-stream: ${reason}\n`);
      return 1;
    }
    // One line per change of reason, not one a second.
    if (reason !== reported) process.stderr.write(`llm-stream: waiting: ${reason}\n`);
    reported = reason;
    await sleep(RETRY_INTERVAL_MS);
  }
}
