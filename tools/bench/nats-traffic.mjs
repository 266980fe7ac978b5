// Counts every message a nats-server carries while it runs, by kind: each JetStream API request by its verb
// (`STREAM.MSG.GET`, `CONSUMER.CREATE`, ...), consumer acks, replies (PubAcks and API answers), and publishes by
// subject root (`llm.raw`, `llm.events`, ...). A wildcard subscription receives a copy of everything, so it costs
// the server a delivery per message: measure with it, never beside a CPU figure.
import { connect } from '@nats-io/transport-node';

/** `$JS.API.CONSUMER.CREATE.LLM_RAW.x.y` -> `$JS.API CONSUMER.CREATE LLM_RAW`; `llm.raw.t.s` -> `llm.raw`. */
export function trafficKind(subject) {
  const tokens = subject.split('.');
  if (subject.startsWith('$JS.API.')) {
    const verb = tokens.slice(2).findIndex((token) => !/^[A-Z]+$/.test(token));
    const verbTokens = verb === -1 ? tokens.slice(2) : tokens.slice(2, 2 + verb);
    const stream = verb === -1 ? '' : ` ${tokens[2 + verb]}`;
    return `$JS.API ${verbTokens.join('.')}${stream}`;
  }
  if (subject.startsWith('$JS.ACK.')) return '$JS.ACK (consumer acks)';
  if (subject.startsWith('_INBOX.')) return '_INBOX (replies: PubAcks, API answers, deliveries)';
  return tokens.slice(0, 2).join('.');
}

/** Starts counting on `url`; `stop()` resolves the counts by kind. */
export async function countTraffic(url) {
  const nc = await connect({ servers: url, name: 'bench-traffic-counter' });
  const counts = new Map();
  nc.subscribe('>', {
    callback: (_error, message) => {
      const kind = trafficKind(message.subject);
      counts.set(kind, (counts.get(kind) ?? 0) + 1);
    },
  });
  await nc.flush();
  return {
    async stop() {
      await nc.flush();
      await nc.close();
      return counts;
    },
  };
}
