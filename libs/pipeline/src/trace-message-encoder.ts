import { HEADERS, rawMsgId, rawSubject, type TraceRecord, type TraceStreamInfo } from '@llm-stream/contract';
import type { OutgoingMessage } from './acks/outgoing-message.js';
import { HEADER_BLOCK_START, headerLines } from './header-block.js';

/**
 * Encodes one stream's raw trace records for publishing, on the hot path: the stream's own headers (ids,
 * provider, model, trace context) are serialized once; each record adds Nats-Msg-Id, kind, raw_seq, ts and
 * attempt as plain lines. Frames travel as their exact text, other records as JSON. The result equals the
 * contract's `encodeTraceRecord` (a test holds them together).
 */
export class TraceMessageEncoder {
  readonly subject: string;
  private readonly prefix: string;

  constructor(
    private readonly stream: TraceStreamInfo,
    streamHeaders: Readonly<Record<string, string>> = {},
  ) {
    this.subject = rawSubject(stream.tenant, stream.stream_id);
    this.prefix = `${HEADER_BLOCK_START}${headerLines({
      ...streamHeaders,
      [HEADERS.streamId]: stream.stream_id,
      [HEADERS.tenant]: stream.tenant,
      [HEADERS.provider]: stream.provider,
      [HEADERS.model]: stream.model,
    })}`;
  }

  encode(record: TraceRecord): OutgoingMessage {
    const msgId = rawMsgId(this.stream.stream_id, record.raw_seq);
    const kind = record.kind === 'frame' && record.partial === true ? 'frame.partial' : record.kind;
    let block = `${this.prefix}${HEADERS.msgId}: ${msgId}\r\n${HEADERS.record}: ${kind}\r\n${HEADERS.rawSeq}: ${String(record.raw_seq)}\r\n${HEADERS.ts}: ${String(record.ts)}\r\n`;
    if ('attempt' in record) block += `${HEADERS.attempt}: ${String(record.attempt)}\r\n`;
    const data = record.kind === 'frame' ? record.text : JSON.stringify(record);
    return { data, msgId, position: record.raw_seq, headerBlock: `${block}\r\n` };
  }
}
