import {
  err,
  jsonSyntaxProblem,
  ok,
  parseStreamSubject,
  validateEvent,
  type ContractEvent,
  type Result,
} from '@llm-stream/contract';
import type { OutgoingMessage } from './checkpointed-publisher.js';
import { EventMessageEncoder } from './event-message-encoder.js';
import { headersOfBlock } from './header-block.js';

/** A contract event ready to publish on its stream's subject. */
export interface EventMessage extends OutgoingMessage {
  readonly subject: string;
  /** The headers of `headerBlock`, as pairs. */
  readonly headers: Readonly<Record<string, string>>;
}

export interface EventMessageError {
  readonly code: 'not_an_event_subject' | 'invalid_json' | 'schema_violation' | 'stream_mismatch';
  readonly message: string;
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

/**
 * Reads an event message. With `validate` (the default) the payload is checked against the contract's JSON
 * Schema; a trusted internal hop on the hot path may skip it.
 */
export function decodeEventMessage(
  subject: string,
  data: string,
  options: { readonly validate?: boolean } = {},
): Result<{ event: ContractEvent; tenant: string }, EventMessageError> {
  const parts = parseStreamSubject(subject);
  if (!parts) return err({ code: 'not_an_event_subject', message: `not an event subject: ${subject}` });
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch (error) {
    return err({ code: 'invalid_json', message: `event payload is not JSON: ${jsonSyntaxProblem(error, data)}` });
  }
  let event: ContractEvent;
  if (options.validate === false) {
    // Unchecked on purpose (a trusted hop), but never trusted to be an object at all.
    if (typeof value !== 'object' || value === null || typeof (value as { stream_id?: unknown }).stream_id !== 'string') {
      return err({ code: 'schema_violation', message: 'event payload is not an event object' });
    }
    event = value as ContractEvent;
  } else {
    const validated = validateEvent(value);
    if (!validated.ok) return err({ code: 'schema_violation', message: validated.error.message });
    event = validated.value;
  }
  if (event.stream_id !== parts.streamId) {
    return err({ code: 'stream_mismatch', message: `event of ${event.stream_id} on the subject of ${parts.streamId}` });
  }
  return ok({ event, tenant: parts.tenant });
}
