// The messages the services write, made by their own encoders (libs/pipeline), for the benches that publish
// into the pipeline's streams themselves: the same subjects, header blocks, positions and Nats-Msg-Ids.
import { EventMessageEncoder, TraceMessageEncoder } from '@llm-stream/pipeline';

const TEXT = 'a delta of about thirty-two bytes';
/** One SSE record of a text delta, as an Anthropic stream sends it. */
const FRAME_TEXT = `event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"${TEXT}"}}`;
const TRACE_HEADERS = { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' };

/** A stream id of the benches' own (`label` keeps different benches' streams apart). */
export function benchStreamId(label, index) {
  return `st_01K${label}${String(index).padStart(23 - label.length, '0')}`;
}

/** Encodes one stream's messages: `frame(rawSeq)` for its raw trace, `event(seq)` for its events. */
export function benchStream(tenant, streamId) {
  const trace = new TraceMessageEncoder({ stream_id: streamId, tenant, provider: 'anthropic', model: 'bench' }, TRACE_HEADERS);
  const events = new EventMessageEncoder(tenant, streamId, TRACE_HEADERS);
  const block = { id: `${streamId}.b0`, index: 0, kind: 'text' };
  return {
    rawSubject: trace.subject,
    eventsSubject: events.subject,
    frame: (rawSeq) => trace.encode({ kind: 'frame', raw_seq: rawSeq, ts: Date.now(), attempt: 1, text: FRAME_TEXT }),
    event: (seq) => events.encode({ type: 'block.delta', stream_id: streamId, seq, ts: Date.now(), block, delta: { kind: 'text', text: TEXT } }),
  };
}

/** A message's header block without its Nats-Msg-Id (what storing costs without deduplication). */
export function withoutMsgId(headerBlock) {
  return headerBlock.replace(/^Nats-Msg-Id: [^\r]*\r\n/m, '');
}
