import { HEADERS, eventMsgId, eventsSubject, type ContractEvent } from '@llm-stream/contract';
import type { OutgoingMessage } from './acks/outgoing-message.js';
import { HEADER_BLOCK_START, headerLines } from './header-block.js';

/**
 * Encodes one stream's contract events for publishing, on the hot path: the headers that are the same for
 * every event of the stream (stream id, tenant, trace context) are serialized once; each event adds its own
 * (Nats-Msg-Id, seq, type, ts, block kind) as plain lines, since those values are ours (numbers and names
 * from fixed sets). The result equals `encodeEventMessage`'s (a test holds them together).
 */
export class EventMessageEncoder {
  readonly subject: string;
  private readonly prefix: string;

  constructor(
    tenant: string,
    private readonly streamId: string,
    streamHeaders: Readonly<Record<string, string>> = {},
  ) {
    this.subject = eventsSubject(tenant, streamId);
    this.prefix = `${HEADER_BLOCK_START}${headerLines({ ...streamHeaders, [HEADERS.streamId]: streamId, [HEADERS.tenant]: tenant })}`;
  }

  encode(event: ContractEvent): OutgoingMessage {
    if (event.stream_id !== this.streamId) throw new Error(`event of ${event.stream_id} given to the encoder of ${this.streamId}`);
    const msgId = eventMsgId(this.streamId, event.seq);
    let block = `${this.prefix}${HEADERS.msgId}: ${msgId}\r\n${HEADERS.seq}: ${String(event.seq)}\r\n${HEADERS.eventType}: ${event.type}\r\n${HEADERS.ts}: ${String(event.ts)}\r\n`;
    if ('block' in event) block += `${HEADERS.blockKind}: ${event.block.kind}\r\n`;
    return { data: JSON.stringify(event), msgId, position: event.seq, headerBlock: `${block}\r\n` };
  }
}
