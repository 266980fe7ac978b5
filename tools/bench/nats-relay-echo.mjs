// The normalizer's part of bench:e2e's two-pass NATS relay (see nats-relay.mjs): every chunk a relay sends out
// is received by core subscription and published again, as a second stored message, to where that relay reads
// it back. Nothing else. NATS_URL: the bench's nats-server.
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { HEADERS } from '@llm-stream/contract';
import { ensureRelayStream, publishSoon, RELAY_SUBJECTS } from './nats-relay-subjects.mjs';

const nc = await connect({ servers: process.env.NATS_URL, name: 'bench-relay-echo', noAsyncTraces: true });
await ensureRelayStream(await jetstreamManager(nc));
// `relay.out.<relay>.<request>` goes back on `relay.back.<relay>.<request>`, its message id likewise (the
// relay's is `<subject>:<position>`), as the normalizer reads a record's position from its headers.
const back = (outgoing) => `${RELAY_SUBJECTS.returned}${outgoing.slice(RELAY_SUBJECTS.outgoing.length)}`;
nc.subscribe(`${RELAY_SUBJECTS.outgoing}.>`, {
  callback: (_error, message) => {
    publishSoon(nc, back(message.subject), message.data, back(message.headers?.get(HEADERS.msgId) ?? ''));
  },
});
// Subscribed on the server: the bench may send through the two-pass relay now.
await nc.flush();
process.stdout.write('ready\n');
