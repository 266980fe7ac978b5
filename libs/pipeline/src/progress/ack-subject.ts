import type { JsMsg } from '@nats-io/jetstream';

/**
 * The subject a delivery's acks go to (`$JS.ACK.<stream>.<consumer>.…`). nats.js keeps it on the message
 * (`JsMsgImpl.reply`) but not in the `JsMsg` type; a message without one is not a JetStream delivery.
 */
export function ackSubjectOf(message: JsMsg): string {
  const reply = (message as JsMsg & { readonly reply?: unknown }).reply;
  if (typeof reply === 'string' && reply.startsWith('$JS.ACK.')) return reply;
  throw new TypeError('a JetStream message without an ack subject');
}
