// Fills LLM_RAW and LLM_EVENTS with finished streams before a benchmark, as a running system's store holds its
// retention (24 h by default) of earlier traffic: what JetStream does per request can grow with what it holds.
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { EncodedHeaders, ensurePipelineStreams, DEFAULT_STREAM_OPTIONS, headerBlock } from '@llm-stream/pipeline';
import { HEADERS, STREAM_NAMES, eventsSubject, rawSubject } from '@llm-stream/contract';
import { waitFor } from '@llm-stream/testing';

const FRAME = 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a delta of about thirty-two bytes"}}';
const EVENT = '{"type":"block.delta","stream_id":"%","seq":0,"ts":0,"block":{"id":"%.b0","index":0,"kind":"text"},"delta":{"kind":"text","text":"a delta of about thirty-two bytes"}}';

/**
 * Core-publishes `streams` earlier streams of `perStream` raw records and as many events each (their own
 * subjects, positions and Nats-Msg-Ids, as the services write them) and waits until both streams hold them.
 * Returns the seconds it took.
 */
export async function prefillStore(natsUrl, { streams, perStream }) {
  const started = performance.now();
  const nc = await connect({ servers: natsUrl, name: 'bench-prefill' });
  try {
    const jsm = await jetstreamManager(nc);
    await ensurePipelineStreams(jsm, DEFAULT_STREAM_OPTIONS);
    const before = { raw: (await jsm.streams.info(STREAM_NAMES.raw)).state.messages, events: (await jsm.streams.info(STREAM_NAMES.events)).state.messages };
    for (let stream = 0; stream < streams; stream += 1) {
      const streamId = `st_01KPREFILL${String(stream).padStart(15, '0')}`;
      for (let position = 1; position <= perStream; position += 1) {
        const raw = headerBlock({ [HEADERS.msgId]: `${streamId}:r${String(position)}`, [HEADERS.streamId]: streamId, [HEADERS.tenant]: 'prefill', [HEADERS.rawSeq]: String(position) });
        nc.publish(rawSubject('prefill', streamId), FRAME, { headers: new EncodedHeaders(raw) });
        const event = headerBlock({ [HEADERS.msgId]: `${streamId}:${String(position)}`, [HEADERS.streamId]: streamId, [HEADERS.tenant]: 'prefill', [HEADERS.seq]: String(position) });
        nc.publish(eventsSubject('prefill', streamId), EVENT.replaceAll('%', streamId), { headers: new EncodedHeaders(event) });
      }
      if (stream % 50 === 49) await nc.flush();
    }
    await nc.flush();
    const expected = streams * perStream;
    await waitFor(
      async () => {
        const raw = (await jsm.streams.info(STREAM_NAMES.raw)).state.messages - before.raw;
        const events = (await jsm.streams.info(STREAM_NAMES.events)).state.messages - before.events;
        return (raw >= expected && events >= expected) || undefined;
      },
      { timeoutMs: 600_000, intervalMs: 500, description: `${expected} prefilled messages in each stream` },
    );
  } finally {
    await nc.close();
  }
  return (performance.now() - started) / 1000;
}
