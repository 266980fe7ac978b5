// What the benches' NATS relays (nats-relay.mjs, nats-relay-echo.mjs) share: their subjects, their stream and
// the ways they publish.
import { createInbox } from '@nats-io/transport-node';
import { HEADERS } from '@llm-stream/contract';
import { EncodedHeaders, ensureStream, headerBlock, pipelineStreamConfigs, DEFAULT_STREAM_OPTIONS } from '@llm-stream/pipeline';

/**
 * Where a relay's chunks travel, each subject followed by `.<relay>.<request>`. The relays that write on the core
 * echo read back what their stream stores (`stored` is `returned`); the acked ones write on PubAcks, and their
 * echo passes a chunk on, unstored, once its own copy is acked.
 */
export function relaySubjects(acked) {
  return acked
    ? { outgoing: 'relay.acked.out', stored: 'relay.acked.back', returned: 'bench.relay.passed' }
    : { outgoing: 'relay.out', stored: 'relay.back', returned: 'relay.back' };
}

/** The raw trace's stream configuration (file storage, the 2-minute duplicate window), under a name of its own. */
export async function ensureRelayStream(jsm) {
  const [rawConfig] = pipelineStreamConfigs(DEFAULT_STREAM_OPTIONS);
  await ensureStream(jsm, { ...rawConfig, name: 'BENCH_RELAY', subjects: ['relay.>'] });
}

// Core publishes of one event-loop turn go out together, with a header block serialized once, as the services'
// publishers send them. A message without `msgId` goes out without headers (a subject no stream captures).
let queued = [];
export function publishSoon(nc, subject, data, msgId, reply) {
  if (queued.length === 0) setImmediate(flushQueued);
  queued.push({ nc, subject, data, msgId, reply });
}
function flushQueued() {
  const batch = queued;
  queued = [];
  for (const { nc, subject, data, msgId, reply } of batch) {
    const headers = msgId === undefined ? undefined : new EncodedHeaders(headerBlock({ [HEADERS.msgId]: msgId }));
    nc.publish(subject, data, { headers, reply });
  }
}

/**
 * Publishes with the platform's proof of storage, as the services will: one wildcard inbox subscription per
 * connection and a reply subject of its own under it for each message, where JetStream sends the PubAck.
 * Nothing waits on one ack before the next publish. `onAck(stored)` runs once per message. A floor measures the
 * path where every ack arrives: no bound, no sending again.
 */
export function ackedPublisher(nc) {
  const inbox = createInbox();
  const waiting = new Map();
  let sent = 0;
  nc.subscribe(`${inbox}.*`, {
    callback: (_error, message) => {
      const id = message.subject.slice(inbox.length + 1);
      const onAck = waiting.get(id);
      waiting.delete(id);
      onAck?.(isStored(message.data));
    },
  });
  return (subject, data, msgId, onAck) => {
    sent += 1;
    const id = String(sent);
    waiting.set(id, onAck);
    publishSoon(nc, subject, data, msgId, `${inbox}.${id}`);
  };
}

const decoder = new TextDecoder();
/** A PubAck is `{"stream":..,"seq":..,"duplicate"?:true}` (stored, now or before) or `{"error":{..}}`. */
function isStored(data) {
  const ack = JSON.parse(decoder.decode(data));
  return ack.error === undefined && typeof ack.seq === 'number';
}
