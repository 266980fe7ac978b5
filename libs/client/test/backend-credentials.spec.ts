import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { STREAM_NAMES, type ContractEvent } from '@llm-stream/contract';
import { generateNatsCredentials, natsAuthServerConfig, provisionPipeline, type NatsCredentials, type NatsUserCredentials } from '@llm-stream/pipeline';
import { startNatsServer, waitFor, type NatsServerHandle } from '@llm-stream/testing';
import { LlmStreamClient } from '../src/llm-stream-client.js';
import { RECONNECTING, keys, ofStream, publishEvents, publishStored, range, take } from './nats-events.js';
import { textStream, toolCallStream, words } from './stream-fixtures.js';

/**
 * The backend's path as the README tells it: `LlmStreamClient` on a connection of the tenant's backend user
 * (`backend-<tenant>`), on the NATS authorization the project ships. Its events reach it through its tenant
 * account's copy (a stream source of the platform's LLM_EVENTS); the platform's events are published as the
 * normalizer user. The other specs of this lib test the client's mechanics on an anonymous server.
 */
describe("LlmStreamClient as a tenant's backend user (shipped NATS configuration)", () => {
  let server: NatsServerHandle;
  let credentials: NatsCredentials;
  let normalizer: NatsConnection;
  let platformJsm: JetStreamManager;
  const opened: NatsConnection[] = [];

  const connectAs = async (user: NatsUserCredentials, inboxPrefix?: string): Promise<NatsConnection> => {
    const nc = await connect({ servers: server.url, user: user.user, pass: user.password, ...RECONNECTING, ...(inboxPrefix === undefined ? {} : { inboxPrefix }) });
    opened.push(nc);
    return nc;
  };
  const backendOf = (tenant: string): Promise<NatsConnection> => connectAs(credentials.tenants[tenant]!.backend);

  beforeAll(async () => {
    credentials = generateNatsCredentials(['acme', 'globex']);
    server = await startNatsServer({
      config: natsAuthServerConfig({ credentials }),
      provision: (url) => provisionPipeline({ servers: [url], credentials }),
    });
    normalizer = await connectAs(credentials.platform.normalizer, '_INBOX_normalizer');
    platformJsm = await jetstreamManager(normalizer);
  }, 30_000);

  afterAll(async () => {
    for (const nc of opened) await nc.close();
    await server.stop();
  });

  it("reads its tenant's streams exactly once and in order through a NATS kill -9, and nothing of another tenant", async () => {
    const client = new LlmStreamClient(await backendOf('acme'), { tenant: 'acme' });
    const answer = toolCallStream('st_backend_tool', 'acme', 'completed');
    const text = textStream('st_backend_text', 'acme', words(20));
    await publishEvents(normalizer, 'globex', textStream('st_backend_globex', 'globex', words(3)));
    const subscription = client.tenantStreams({ since: 'all' });
    const iterator = subscription[Symbol.asyncIterator]();
    await publishStored(normalizer, platformJsm, 'acme', answer);
    await publishStored(normalizer, platformJsm, 'acme', text.slice(0, 10));
    const delivered = await take(iterator, answer.length + 10);
    await server.kill('SIGKILL');
    await server.restart();
    // The publisher's connection is back once JetStream answers it (a flush while it reconnects fails).
    await waitFor(() => platformJsm.streams.info(STREAM_NAMES.events).then(() => true, () => false), { timeoutMs: 15_000, description: 'JetStream to answer the normalizer again' });
    await publishStored(normalizer, platformJsm, 'acme', text.slice(10), 10);
    delivered.push(...(await take(iterator, text.length - 10)));
    await subscription.close();
    expect(new Set(keys(delivered)).size).toBe(answer.length + text.length);
    expect(ofStream(delivered, 'st_backend_tool')).toEqual(range(answer.length));
    expect(ofStream(delivered, 'st_backend_text')).toEqual(range(text.length));
    expect(delivered.some((event) => event.stream_id === 'st_backend_globex')).toBe(false);
    const outcome = await client.result('st_backend_tool');
    expect(outcome.toolCalls.map((call) => call.name)).toEqual(['get_schedule']);
  }, 60_000);

  it('keeps its place in a durable consumer of its own account across a restart of the backend', async () => {
    const stream = textStream('st_backend_durable', 'acme', words(12));
    await publishStored(normalizer, platformJsm, 'acme', stream.slice(0, 8));
    const firstRun = new LlmStreamClient(await backendOf('acme'), { tenant: 'acme' }).durableTenantStreams('billing', { ackWaitMs: 2_000 });
    const delivered: ContractEvent[] = [];
    for await (const event of firstRun) {
      if (event.stream_id !== 'st_backend_durable') continue;
      delivered.push(event);
      if (delivered.length === 5) void firstRun.close();
    }
    await publishStored(normalizer, platformJsm, 'acme', stream.slice(8), 8);
    // A durable joined mid-stream waits the gap timeout for earlier seqs before going on: kept short here.
    const secondRun = new LlmStreamClient(await backendOf('acme'), { tenant: 'acme', gapTimeoutMs: 300 }).durableTenantStreams('billing');
    for await (const event of secondRun) {
      if (event.stream_id !== 'st_backend_durable') continue;
      delivered.push(event);
      if (event.seq === stream.length) void secondRun.close();
    }
    expect(ofStream(delivered, 'st_backend_durable')).toEqual(range(stream.length));
  }, 60_000);
});
