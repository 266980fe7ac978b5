// What the benches' NATS relays (nats-relay.mjs, nats-relay-echo.mjs) share: their subjects, their stream and
// the way they publish.
import { HEADERS } from '@llm-stream/contract';
import { EncodedHeaders, ensureStream, headerBlock, pipelineStreamConfigs, DEFAULT_STREAM_OPTIONS } from '@llm-stream/pipeline';

export const RELAY_SUBJECTS = {
  /** A chunk on its way to the echo process (`.<relay>.<request>`). */
  outgoing: 'relay.out',
  /** A chunk on its way back to the relay that serves its request. */
  returned: 'relay.back',
};

/** The raw trace's stream configuration (file storage, the 2-minute duplicate window), under a name of its own. */
export async function ensureRelayStream(jsm) {
  const [rawConfig] = pipelineStreamConfigs(DEFAULT_STREAM_OPTIONS);
  await ensureStream(jsm, { ...rawConfig, name: 'BENCH_RELAY', subjects: ['relay.>'] });
}

// Core publishes of one event-loop turn go out together, with a header block serialized once, as the services'
// publishers send them.
let queued = [];
export function publishSoon(nc, subject, data, msgId) {
  if (queued.length === 0) setImmediate(flushQueued);
  queued.push({ nc, subject, data, msgId });
}
function flushQueued() {
  const batch = queued;
  queued = [];
  for (const { nc, subject, data, msgId } of batch) {
    nc.publish(subject, data, { headers: new EncodedHeaders(headerBlock({ [HEADERS.msgId]: msgId })) });
  }
}
