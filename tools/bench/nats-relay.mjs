// A minimal NATS relay in its own node process, for bench:e2e's floors of the design: the least a service on the
// pipeline's path can do. Each chunk of the provider's bytes is core-published with a Nats-Msg-Id into a
// subject a file-backed JetStream stream captures (as the gateway publishes a raw record) and written to the
// client once it is proven. No parsing, no tracing, no session.
// RELAY_PASSES=1: one stored message per record (the floor of any design that stores what passes through NATS).
// RELAY_PASSES=2: an echo process (nats-relay-echo.mjs, the normalizer's part) receives the chunk and stores it
// again as a second message, which comes back: the pipeline's own shape (three processes, two stored messages
// per record) with nothing else done.
// What proves a chunk: without RELAY_ACKED, its core echo (the stored copy coming back by subscription: no proof
// of storage). RELAY_ACKED=1: its PubAck, and with two passes also the echo's copy, which the echo passes on
// only once its own PubAck has arrived; chunks are written in order, each when every proof of it is in.
// PROXY_PORT: where it listens; PROXY_UPSTREAM: http://host:port; NATS_URL: the bench's nats-server.
import { createServer } from 'node:http';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { ackedPublisher, ensureRelayStream, publishSoon, relaySubjects } from './nats-relay-subjects.mjs';
import { forwardRequest } from './upstream-request.mjs';

const port = Number(process.env.PROXY_PORT);
const upstream = new URL(process.env.PROXY_UPSTREAM ?? '');
const passes = Number(process.env.RELAY_PASSES ?? 1);
const acked = process.env.RELAY_ACKED === '1';
const relayId = `${String(process.pid)}-${String(passes)}`;
const subjects = relaySubjects(acked);
/** Where a chunk goes out: to the echo process, or with one pass straight into its stored subject. */
const outgoing = passes === 1 ? subjects.stored : subjects.outgoing;
const awaitsAck = acked;
const awaitsReturn = !acked || passes === 2;

const nc = await connect({ servers: process.env.NATS_URL, name: `bench-relay-${relayId}`, noAsyncTraces: true });
await ensureRelayStream(await jetstreamManager(nc));
const publishAcked = acked ? ackedPublisher(nc) : undefined;

/** The open relays by id: one wildcard subscription, routed in memory. */
const relays = new Map();
nc.subscribe(`${subjects.returned}.${relayId}.>`, {
  callback: (_error, message) => relays.get(message.subject.slice(message.subject.lastIndexOf('.') + 1))?.returned(),
});

let nextId = 0;
createServer((clientRequest, clientResponse) => {
  nextId += 1;
  const id = String(nextId);
  const subject = `${outgoing}.${relayId}.${id}`;
  /** The chunks not written yet, in order, each with the count of proofs it still lacks. */
  const unwritten = [];
  let published = 0;
  let written = 0;
  let returned = 0;
  let upstreamEnded = false;
  const endIfDone = () => {
    if (upstreamEnded && unwritten.length === 0) {
      relays.delete(id);
      clientResponse.end();
    }
  };
  const proven = (position) => {
    unwritten[position - written - 1].missing -= 1;
    while (unwritten.length > 0 && unwritten[0].missing === 0) {
      clientResponse.write(unwritten.shift().data);
      written += 1;
    }
    endIfDone();
  };
  relays.set(id, {
    returned() {
      returned += 1;
      proven(returned);
    },
  });
  clientResponse.on('close', () => relays.delete(id));
  forwardRequest(upstream, clientRequest, clientResponse, (upstreamResponse) => {
    clientResponse.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.headers);
    upstreamResponse.on('data', (chunk) => {
      published += 1;
      const position = published;
      unwritten.push({ data: chunk, missing: Number(awaitsAck) + Number(awaitsReturn) });
      const msgId = `${subject}:${String(position)}`;
      if (awaitsAck) publishAcked(subject, chunk, msgId, (stored) => (stored ? proven(position) : clientResponse.destroy()));
      else publishSoon(nc, subject, chunk, msgId);
    });
    upstreamResponse.on('end', () => {
      upstreamEnded = true;
      endIfDone();
    });
  });
}).listen(port, '127.0.0.1');
