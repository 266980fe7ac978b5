import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { ToolArguments } from '@llm-stream/contract';
import { startNatsServer, waitFor, type NatsServerHandle } from '@llm-stream/testing';
import { ensurePipelineStreams } from '@llm-stream/pipeline';
import { publishStored } from './nats-events.js';
import { WEATHER_CALL, toolCallStream } from './stream-fixtures.js';
import { runToolRunner } from './tool-runner-example.js';

// The quick start's tenant and the tool its demo answer calls, as in the README.
const TENANT = 'demo';

describe('the README backend example (real nats-server)', () => {
  let server: NatsServerHandle;
  let nc: NatsConnection;

  beforeAll(async () => {
    server = await startNatsServer();
    nc = await connect({ servers: server.url, maxReconnectAttempts: -1 });
    await ensurePipelineStreams(await jetstreamManager(nc));
  });

  afterAll(async () => {
    await nc.close();
    await server.stop();
  });

  it('runs the tool call of the completed stream once, and only reports the one of the interrupted stream', async () => {
    const jsm = await jetstreamManager(nc);
    await publishStored(nc, jsm, TENANT, toolCallStream('st_example_done', TENANT, 'completed', WEATHER_CALL));
    await publishStored(nc, jsm, TENANT, toolCallStream('st_example_cut', TENANT, 'interrupted', WEATHER_CALL));
    const calls: { args: ToolArguments; callId: string | undefined }[] = [];
    const logs: { message: string; fields: Readonly<Record<string, unknown>> }[] = [];
    const stop = new AbortController();
    const running = runToolRunner(nc, {
      tenant: TENANT,
      signal: stop.signal,
      tools: {
        get_weather: (args, callId) => {
          calls.push({ args, callId });
          return Promise.resolve({ forecast: 'sunny' });
        },
      },
      log: (message, fields) => logs.push({ message, fields }),
    });
    await waitFor(() => logs.length >= 2, { description: 'both streams handled' });
    stop.abort();
    await running;
    expect(calls).toEqual([{ args: { city: 'Kraków', unit: 'celsius' }, callId: WEATHER_CALL.callId }]);
    expect(logs.map(({ message, fields }) => [message, fields['stream_id'], fields['reason'] ?? fields['name']])).toEqual([
      ['tool call ran', 'st_example_done', 'get_weather'],
      ['tool call not run', 'st_example_cut', 'stream_interrupted'],
    ]);
  });

  it('is quoted verbatim in libs/client/README.md', () => {
    const source = readFileSync(join(__dirname, 'tool-runner-example.ts'), 'utf8').replace("'../src/index.js'", "'@llm-stream/client'");
    expect(readFileSync(join(__dirname, '..', 'README.md'), 'utf8')).toContain(source);
  });
});
