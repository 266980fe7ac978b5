import type { WarnInput } from '@llm-stream/contract';

/**
 * An event type the adapter does not know: skipped, and reported so the session can count it per provider
 * and type and warn once per stream. Providers add event types over time; they never end a stream.
 */
export function unknownEvent(eventType: string): WarnInput {
  // A record with no event type at all (another protocol's stream, typically) is said so, not "event ".
  const message = eventType === '' ? 'skipped a record without an event type' : `skipped unknown event ${eventType}`;
  return { type: 'warn', warning: { code: 'unknown_event', message, provider_event_type: eventType } };
}

/** A content part or block type the adapter does not map (server tools, audio...): skipped and counted. */
export function unknownPart(partType: string): WarnInput {
  return {
    type: 'warn',
    warning: { code: 'unknown_part', message: `skipped unknown content ${partType}`, provider_event_type: partType },
  };
}
