import { EVENT_TYPES, decodeEventMessage, err, ok, type HeaderLookup, type Result } from '@llm-stream/contract';
import type { IncomingEvent } from '../store/audit-repository.js';
import { traceIdOf } from './trace-id.js';

/** A message that can never be stored (it is terminated, not redelivered). */
export interface UnstorableMessage {
  readonly code: 'not_an_event' | 'not_a_trace_record';
  readonly message: string;
}

/** The store keeps sequence numbers as 32-bit integers: a larger one is not a real stream's. */
export const MAX_SEQ = 2_147_483_647;

const isPositiveInt = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

/**
 * An LLM_EVENTS message as an event to store. The normalizer is a trusted internal hop, so the payload is not
 * validated against the full JSON Schema here (the verify query does that); only what the store relies on is
 * checked: the subject, the type, a positive integer seq and ts, and the stream id matching the subject.
 * `jsTime` is JetStream's time of the message (ms since the epoch; null outside JetStream): when LLM_EVENTS
 * stored the event, which the console's timeline shows beside when its raw frame arrived.
 */
export function readEventMessage(subject: string, data: string, header: HeaderLookup, jsTime: number | null): Result<IncomingEvent, UnstorableMessage> {
  const decoded = decodeEventMessage(subject, data, { validate: false });
  // The codec's code, not its message: a JSON syntax error quotes the payload.
  if (!decoded.ok) return err({ code: 'not_an_event', message: decoded.error.code });
  const { event, tenant } = decoded.value;
  const shape = event as unknown as Record<string, unknown>;
  if (typeof shape !== 'object' || !(EVENT_TYPES as readonly unknown[]).includes(shape['type'])) {
    return err({ code: 'not_an_event', message: 'the payload has no contract event type' });
  }
  if (!isPositiveInt(shape['seq']) || shape['seq'] > MAX_SEQ || !isPositiveInt(shape['ts'])) {
    return err({ code: 'not_an_event', message: 'the event has no positive integer seq (at most 2^31 - 1) and ts' });
  }
  return ok({
    tenant,
    event,
    body: data,
    jsTime,
    get traceId(): string | null {
      return traceIdOf(header);
    },
  });
}
