import type { ContractEvent } from '@llm-stream/contract';
import type { OutgoingMessage } from './acks/outgoing-message.js';
import { EventMessageEncoder } from './event-message-encoder.js';
import { headersOfBlock } from './header-block.js';

/** A contract event ready to publish on its stream's subject. */
export interface EventMessage extends OutgoingMessage {
  readonly subject: string;
  /** The headers of `headerBlock`, as pairs. */
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * `llm.events.<tenant>.<stream_id>` with `Nats-Msg-Id = <stream_id>:<seq>`, so that republishing an event
 * (a normalizer takeover, a repair after verification) is deduplicated by JetStream. One event at a time;
 * a stream's publisher uses an EventMessageEncoder, which this is made of.
 */
export function encodeEventMessage(
  event: ContractEvent,
  tenant: string,
  extraHeaders: Readonly<Record<string, string>> = {},
): EventMessage {
  const encoder = new EventMessageEncoder(tenant, event.stream_id, extraHeaders);
  const message = encoder.encode(event);
  const headers: Record<string, string> = {};
  for (const [name, values] of headersOfBlock(message.headerBlock)) headers[name] = values[0] ?? '';
  return { ...message, subject: encoder.subject, headers };
}
