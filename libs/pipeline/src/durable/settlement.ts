import type { JsMsg } from '@nats-io/jetstream';

/**
 * What becomes of a message a durable consumer delivered, as its handler decides:
 * - `ack`: handled; JetStream forgets it;
 * - `nak`: not now; redelivered after `delayMs` (at once without it), to this or another consumer instance;
 * - `term`: it can never be handled; never redelivered;
 * - `held`: the handler keeps it and settles it itself later (long work: it calls `working()` within the ack
 *   wait meanwhile, and acks, naks or terminates the message when the work ends).
 */
export type Settlement =
  | { readonly kind: 'ack' }
  | { readonly kind: 'nak'; readonly delayMs?: number }
  | { readonly kind: 'term' }
  | { readonly kind: 'held' };

export const ACK = { kind: 'ack' } as const satisfies Settlement;
export const TERM = { kind: 'term' } as const satisfies Settlement;
export const HELD = { kind: 'held' } as const satisfies Settlement;

export function nak(delayMs?: number): Extract<Settlement, { readonly kind: 'nak' }> {
  return delayMs === undefined ? { kind: 'nak' } : { kind: 'nak', delayMs };
}

/** Tells JetStream what the handler decided (a `held` message is the handler's to settle). */
export function settle(message: JsMsg, settlement: Settlement): void {
  switch (settlement.kind) {
    case 'ack':
      message.ack();
      return;
    case 'nak':
      message.nak(settlement.delayMs);
      return;
    case 'term':
      // No reason text: a `+TERM <reason>` is ignored by nats-server before 2.10 (the message would stay pending).
      message.term();
      return;
    case 'held':
      return;
  }
}

/**
 * How a stopping consumer hands back what it received and did not handle: a nak with a short delay. An
 * immediate nak can be redelivered at once to the stopping consumer's own pull request, still registered at
 * the server (nats-server 2.9 was seen to), where nobody reads it any more: it would wait out its ack wait.
 */
export const HAND_BACK_DELAY_MS = 100;

export function handBack(message: JsMsg): void {
  message.nak(HAND_BACK_DELAY_MS);
}
