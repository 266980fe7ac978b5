import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { startNatsServer, type NatsServerHandle } from '@llm-stream/testing';
import { headerBlock, headersOfBlock } from './header-block.js';
import { missingPositions, storedPositions } from './stored-positions.js';

describe('storedPositions (real nats-server with JetStream)', () => {
  let server: NatsServerHandle;
  let nc: NatsConnection;
  let js: JetStreamClient;
  let jsm: JetStreamManager;

  beforeAll(async () => {
    server = await startNatsServer();
    nc = await connect({ servers: server.url });
    js = jetstream(nc);
    jsm = await jetstreamManager(nc);
    await jsm.streams.add({ name: 'TEST_POSITIONS', subjects: ['test.positions.>'] });
  });

  afterAll(async () => {
    await nc.close();
    await server.stop();
  });

  async function store(subject: string, positions: readonly number[]): Promise<void> {
    for (const position of positions) await js.publish(subject, 'x', { headers: headersOfBlock(headerBlock({ 'Llm-Seq': String(position) })) });
  }

  it('reads a subject to its end over several fetches, beside another subject, and finds its holes', async () => {
    const subject = 'test.positions.st_long';
    const held = Array.from({ length: 2_600 }, (_, index) => index + 1).filter((position) => position % 1_000 !== 0);
    await store(subject, held.slice(0, 1_300));
    await store('test.positions.st_other', [1, 2, 3]);
    await store(subject, held.slice(1_300));
    const positions = await storedPositions(js, 'TEST_POSITIONS', subject, 'Llm-Seq');
    expect(positions.size).toBe(2_598);
    expect(missingPositions(positions, 2_601)).toEqual([1_000, 2_000, 2_601]);
  });

  it('answers an empty set for a subject that holds nothing', async () => {
    expect((await storedPositions(js, 'TEST_POSITIONS', 'test.positions.st_none', 'Llm-Seq')).size).toBe(0);
  });
});
