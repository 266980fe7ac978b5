import { provisionPipeline, type PipelineStreamOptions } from '@llm-stream/pipeline';
import { natsEnvironment } from './nats-environment.js';
import { UsageError } from '../usage-error.js';
import { readCredentials } from './read-credentials.js';

const HOUR_MS = 3_600_000;

/**
 * `provision --credentials <file>`: the operator step. Creates the pipeline's streams in the platform account
 * and each tenant's LLM_EVENTS in its account (or brings their limits up to date), as the provisioners. The
 * server and the limits come from the services' variables: NATS_URL, NATS_TLS_CA_FILE / _CERT_FILE /
 * _KEY_FILE, JETSTREAM_REPLICAS, RAW_RETENTION_HOURS, EVENTS_RETENTION_HOURS.
 */
export async function provisionCommand(credentialsPath: string | undefined, env: NodeJS.ProcessEnv): Promise<number> {
  const credentials = await readCredentials(credentialsPath);
  const { servers, tls } = natsEnvironment(env);
  const report = await provisionPipeline({ servers, credentials, streams: streamLimits(env), ...(tls === undefined ? {} : { tls }) });
  const tenants = Object.keys(credentials.tenants);
  process.stdout.write(`provisioned LLM_RAW, LLM_EVENTS, LLM_WORK and the LLM_EVENTS of ${tenants.length === 0 ? 'no tenant' : tenants.join(', ')} on ${servers.join(',')}\n`);
  for (const tenant of report.recreatedCopies) {
    process.stdout.write(`recreated the LLM_EVENTS of ${tenant} as a copy sourced from the platform's (it was of the earlier, capturing form); backends' durable consumers on it must be created again\n`);
  }
  return 0;
}

function streamLimits(env: NodeJS.ProcessEnv): Partial<PipelineStreamOptions> {
  const count = (name: string, max: number): number | undefined => {
    const value = env[name];
    if (value === undefined || value === '') return undefined;
    if (!/^[1-9]\d*$/.test(value) || Number(value) > max) throw new UsageError(`${name} must be an integer from 1 to ${String(max)}, got ${JSON.stringify(value)}`);
    return Number(value);
  };
  const replicas = count('JETSTREAM_REPLICAS', 5);
  const rawHours = count('RAW_RETENTION_HOURS', 8_760);
  const eventsHours = count('EVENTS_RETENTION_HOURS', 8_760);
  return {
    ...(replicas === undefined ? {} : { replicas }),
    ...(rawHours === undefined ? {} : { rawMaxAgeMs: rawHours * HOUR_MS }),
    ...(eventsHours === undefined ? {} : { eventsMaxAgeMs: eventsHours * HOUR_MS }),
  };
}
