// Fills LLM_RAW and LLM_EVENTS with finished streams before a benchmark, as a running system's store holds its
// retention (24 h by default) of earlier traffic: what JetStream does per request can grow with what it holds.
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { EncodedHeaders, ensurePipelineStreams, DEFAULT_STREAM_OPTIONS } from '@llm-stream/pipeline';
import { STREAM_NAMES } from '@llm-stream/contract';
import { waitFor } from '@llm-stream/testing';
import { benchStream, benchStreamId } from './pipeline-messages.mjs';

/**
 * Core-publishes `streams` earlier streams of `perStream` raw records and as many events each (made by the
 * services' own encoders: subjects, positions and Nats-Msg-Ids as they write them) and waits until both
 * streams hold them. Returns the seconds it took.
 */
export async function prefillStore(natsUrl, { streams, perStream }) {
  const started = performance.now();
  const nc = await connect({ servers: natsUrl, name: 'bench-prefill' });
  const send = (subject, message) => {
    nc.publish(subject, message.data, { headers: new EncodedHeaders(message.headerBlock) });
  };
  const storedIn = async (jsm, name) => (await jsm.streams.info(name)).state.messages;
  try {
    const jsm = await jetstreamManager(nc);
    await ensurePipelineStreams(jsm, DEFAULT_STREAM_OPTIONS);
    const before = { raw: await storedIn(jsm, STREAM_NAMES.raw), events: await storedIn(jsm, STREAM_NAMES.events) };
    for (let index = 0; index < streams; index += 1) {
      const stream = benchStream('prefill', benchStreamId('PREFILL', index));
      for (let position = 1; position <= perStream; position += 1) {
        send(stream.rawSubject, stream.frame(position));
        send(stream.eventsSubject, stream.event(position));
      }
      if (index % 50 === 49) await nc.flush();
    }
    await nc.flush();
    const expected = streams * perStream;
    await waitFor(
      async () => {
        const raw = (await storedIn(jsm, STREAM_NAMES.raw)) - before.raw;
        const events = (await storedIn(jsm, STREAM_NAMES.events)) - before.events;
        return (raw >= expected && events >= expected) || undefined;
      },
      { timeoutMs: 600_000, intervalMs: 500, description: `${expected} prefilled messages in each stream` },
    );
  } finally {
    await nc.close();
  }
  return (performance.now() - started) / 1000;
}
