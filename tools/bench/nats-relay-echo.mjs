// The normalizer's part of bench:e2e's two-pass NATS relays (see nats-relay.mjs): every chunk a relay sends out
// is received by core subscription and stored again as a second message. For the relays that write on the core
// echo, that stored copy is what comes back. RELAY_ACKED=1: the copy is published with a PubAck to wait for, and
// the chunk is passed on to its relay (core, unstored) only when the ack has arrived. Nothing else.
// NATS_URL: the bench's nats-server.
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { HEADERS } from '@llm-stream/contract';
import { ackedPublisher, ensureRelayStream, publishSoon, relaySubjects } from './nats-relay-subjects.mjs';

const acked = process.env.RELAY_ACKED === '1';
const subjects = relaySubjects(acked);
const nc = await connect({ servers: process.env.NATS_URL, name: `bench-relay-echo${acked ? '-acked' : ''}`, noAsyncTraces: true });
await ensureRelayStream(await jetstreamManager(nc));
const publishAcked = acked ? ackedPublisher(nc) : undefined;
// `<outgoing>.<relay>.<request>` is stored as `<stored>.<relay>.<request>`, its message id likewise (the
// relay's is `<subject>:<position>`), as the normalizer reads a record's position from its headers.
const to = (root, outgoing) => `${root}${outgoing.slice(subjects.outgoing.length)}`;
nc.subscribe(`${subjects.outgoing}.>`, {
  callback: (_error, message) => {
    const storedSubject = to(subjects.stored, message.subject);
    const msgId = to(subjects.stored, message.headers?.get(HEADERS.msgId) ?? '');
    if (!acked) {
      publishSoon(nc, storedSubject, message.data, msgId);
      return;
    }
    publishAcked(storedSubject, message.data, msgId, (stored) => {
      if (stored) publishSoon(nc, to(subjects.returned, message.subject), message.data);
      else process.stderr.write(`not stored: ${msgId}\n`);
    });
  },
});
// Subscribed on the server: the bench may send through the two-pass relay now.
await nc.flush();
process.stdout.write('ready\n');
