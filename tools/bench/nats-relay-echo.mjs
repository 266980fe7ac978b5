// The normalizer's part of bench:e2e's two-pass NATS relay (see nats-relay.mjs): every chunk a relay sends out
// is received by core subscription and published again, as a second stored message, to where that relay reads
// it back. Nothing else. NATS_URL: the bench's nats-server.
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { ensureRelayStream, publishSoon, RELAY_SUBJECTS } from './nats-relay-subjects.mjs';

const nc = await connect({ servers: process.env.NATS_URL, name: 'bench-relay-echo', noAsyncTraces: true });
await ensureRelayStream(await jetstreamManager(nc));
const back = RELAY_SUBJECTS.returned;
const prefix = RELAY_SUBJECTS.outgoing.length;
const positions = new Map();
nc.subscribe(`${RELAY_SUBJECTS.outgoing}.>`, {
  callback: (_error, message) => {
    const subject = `${back}${message.subject.slice(prefix)}`;
    const position = (positions.get(subject) ?? 0) + 1;
    positions.set(subject, position);
    publishSoon(nc, subject, message.data, `${subject}:${String(position)}`);
  },
});
// Subscribed on the server: the bench may send through the two-pass relay now.
await nc.flush();
process.stdout.write('ready\n');
