import { jetstreamManager } from '@nats-io/jetstream';
import { startNatsServer, type NatsServerHandle } from '@llm-stream/testing';
import { STREAM_NAMES } from '@llm-stream/contract';
import { NatsAuthError } from '../src/auth/nats-auth-error.js';
import { generateNatsCredentials, type NatsCredentials } from '../src/auth/nats-credentials.js';
import { natsAuthServerConfig } from '../src/auth/nats-server-config.js';
import { provisionPipeline } from '../src/auth/provision-pipeline.js';
import { connectPipeline } from '../src/connect-pipeline.js';

/** A service under its NATS user checks the streams the operator step created; it never creates one. */
describe('connectPipeline as a NATS user', () => {
  let server: NatsServerHandle;
  let credentials: NatsCredentials;

  beforeAll(async () => {
    credentials = generateNatsCredentials(['acme']);
    server = await startNatsServer({ config: natsAuthServerConfig({ credentials }) });
  });

  afterAll(async () => {
    await server.stop();
  });

  it('fails with streams_missing before provisioning, and connects after it', async () => {
    const { user, password } = credentials.platform.normalizer;
    const options = { servers: [server.url], name: 'auth-test', user, password, maxReconnectAttempts: 0 };
    const refused = await connectPipeline(options).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(NatsAuthError);
    expect(refused).toMatchObject({ code: 'streams_missing', message: expect.stringMatching(/LLM_RAW, LLM_EVENTS, LLM_WORK.*llm-stream provision/) as unknown });

    await provisionPipeline({ servers: [server.url], credentials, streams: { rawMaxAgeMs: 3_600_000 } });
    const nc = await connectPipeline(options);
    const raw = await (await jetstreamManager(nc)).streams.info(STREAM_NAMES.raw);
    expect(raw.config.max_age).toBe(3_600_000 * 1_000_000);
    await nc.close();
  });
});
