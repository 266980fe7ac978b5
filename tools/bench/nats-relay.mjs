// A minimal NATS relay in its own node process, for bench:e2e's floor of the design: the least a service on the
// pipeline's path can do. Each chunk of the provider's bytes is core-published with a Nats-Msg-Id into a
// subject a file-backed JetStream stream captures (as the gateway publishes a raw frame), received back by core
// subscription (as the gateway receives an event) and written to the client. No parsing, no proof of storage,
// no tracing, no session.
// RELAY_PASSES=1: the chunk comes straight back, one stored message per record (the floor of any design that
// stores what passes through NATS). RELAY_PASSES=2: an echo process (nats-relay-echo.mjs, the normalizer's
// part) receives it and publishes it again as a second stored message, which comes back: the pipeline's own
// shape (three processes, two stored messages per record) with nothing else done.
// PROXY_PORT: where it listens; PROXY_UPSTREAM: http://host:port; NATS_URL: the bench's nats-server.
import { createServer } from 'node:http';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { ensureRelayStream, publishSoon, RELAY_SUBJECTS } from './nats-relay-subjects.mjs';
import { forwardRequest } from './upstream-request.mjs';

const port = Number(process.env.PROXY_PORT);
const upstream = new URL(process.env.PROXY_UPSTREAM ?? '');
const passes = Number(process.env.RELAY_PASSES ?? 1);
const relayId = `${String(process.pid)}-${String(passes)}`;
/** Where a chunk goes out, and where it comes back (after the echo process's pass, with two). */
const outgoing = passes === 1 ? RELAY_SUBJECTS.returned : RELAY_SUBJECTS.outgoing;

const nc = await connect({ servers: process.env.NATS_URL, name: `bench-relay-${relayId}`, noAsyncTraces: true });
await ensureRelayStream(await jetstreamManager(nc));

/** The open relays by id: one wildcard subscription, routed in memory. */
const relays = new Map();
nc.subscribe(`${RELAY_SUBJECTS.returned}.${relayId}.>`, {
  callback: (_error, message) => relays.get(message.subject.slice(message.subject.lastIndexOf('.') + 1))?.received(message.data),
});

let nextId = 0;
createServer((clientRequest, clientResponse) => {
  nextId += 1;
  const id = String(nextId);
  const subject = `${outgoing}.${relayId}.${id}`;
  let published = 0;
  let written = 0;
  let upstreamEnded = false;
  const endIfDone = () => {
    if (upstreamEnded && written === published) {
      relays.delete(id);
      clientResponse.end();
    }
  };
  relays.set(id, {
    received(data) {
      clientResponse.write(data);
      written += 1;
      endIfDone();
    },
  });
  clientResponse.on('close', () => relays.delete(id));
  forwardRequest(upstream, clientRequest, clientResponse, (upstreamResponse) => {
    clientResponse.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.headers);
    upstreamResponse.on('data', (chunk) => {
      published += 1;
      publishSoon(nc, subject, chunk, `${subject}:${String(published)}`);
    });
    upstreamResponse.on('end', () => {
      upstreamEnded = true;
      endIfDone();
    });
  });
}).listen(port, '127.0.0.1');
