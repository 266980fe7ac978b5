import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** Parses a whole event-stream body with eventsource-parser (an independent, spec-exact decoder). */
export function parseSse(body: Buffer): { events: EventSourceMessage[]; comments: string[] } {
  const events: EventSourceMessage[] = [];
  const comments: string[] = [];
  const parser = createParser({ onEvent: (event) => events.push(event), onComment: (comment) => comments.push(comment) });
  parser.feed(body.toString('utf8'));
  return { events, comments };
}
