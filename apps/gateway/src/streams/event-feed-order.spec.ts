// The feed's errors come from the service kit, whose config classes carry decorators: the reflection API first,
// as in the app.
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { jetstream, jetstreamManager, type JetStreamClient } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { ContractEvent } from '@llm-stream/contract';
import { DEFAULT_STREAM_OPTIONS, EncodedHeaders, EventMessageEncoder, ensurePipelineStreams } from '@llm-stream/pipeline';
import { startNatsServer, type NatsServerHandle } from '@llm-stream/testing';
import { EventFeed, type StoredEvent } from './event-feed.js';

const TRANSCRIPT = resolve(__dirname, '../../../../conformance/transcripts/anthropic/multi_block.events.json');

/**
 * The log's reader hands events out as they arrive; the feed alone puts them in seq order. Here the store holds
 * an event that came before the live ones: read first, it waits in the feed until the events before it arrive.
 */
describe('EventFeed (real nats-server with JetStream)', () => {
  let server: NatsServerHandle;
  let nc: NatsConnection;
  let js: JetStreamClient;

  beforeAll(async () => {
    server = await startNatsServer();
    nc = await connect({ servers: server.url });
    js = jetstream(nc);
    await ensurePipelineStreams(await jetstreamManager(nc), DEFAULT_STREAM_OPTIONS);
  });

  afterAll(async () => {
    await nc.close();
    await server.stop();
  });

  it('serves the events in seq order, each once, up to the terminal event, whatever order they reach it in', async () => {
    const events = (JSON.parse(readFileSync(TRANSCRIPT, 'utf8')) as ContractEvent[]).map((event) => ({ ...event, stream_id: 'st_order' }));
    expect(events.length).toBeGreaterThan(3);
    const encoder = new EventMessageEncoder('acme', 'st_order');
    const messages = events.map((event) => encoder.encode(event));
    const publish = (index: number): void => {
      const message = messages[index]!;
      nc.publish(encoder.subject, message.data, { headers: new EncodedHeaders(message.headerBlock) });
    };
    // The third event is stored before the feed exists, and only its catch-up or a repair reads it.
    const third = messages[2]!;
    await js.publish(encoder.subject, third.data, { headers: new EncodedHeaders(third.headerBlock) });
    const feed = new EventFeed({ nc, js, jsm: await jetstreamManager(nc) }, 'acme', 'st_order', 0);
    const served: StoredEvent[] = [];
    const reading = (async () => {
      for await (const event of feed) served.push(event);
    })();
    await nc.flush();
    // Live, everything but the stored one: it reaches the feed before or after the later ones, never in its place.
    for (const index of events.keys()) if (index !== 2) publish(index);
    await reading;
    expect(served.map((event) => event.seq)).toStrictEqual(events.map((event) => event.seq));
    expect(served.map((event) => JSON.parse(event.json) as unknown)).toStrictEqual(events);
  });
});
