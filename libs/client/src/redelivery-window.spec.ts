import type { JsMsg } from '@nats-io/jetstream';
import { RedeliveryWindow } from './redelivery-window.js';

/** Only `seq` and `redelivered` are read. */
function delivery(seq: number, redelivered: boolean): JsMsg {
  return { seq, redelivered } as JsMsg;
}

describe('RedeliveryWindow', () => {
  it('is closed from the start when no earlier reader left anything unacknowledged', () => {
    expect(new RedeliveryWindow(0, 1_000, 30_000, 500).joinNotBefore).toBe(0);
  });

  it('lasts the redelivery time plus the margin at most', () => {
    const window = new RedeliveryWindow(3, 1_000, 30_000, 500);
    expect(window.joinNotBefore).toBe(31_500);
  });

  it('closes once every message left by earlier readers came back', () => {
    const window = new RedeliveryWindow(2, 1_000, 30_000, 500);
    expect(window.observe(delivery(10, false), 1_100)).toBe(false);
    expect(window.observe(delivery(7, true), 1_200)).toBe(false);
    expect(window.observe(delivery(7, true), 1_300)).toBe(false);
    expect(window.joinNotBefore).toBe(31_500);
    expect(window.observe(delivery(8, true), 1_400)).toBe(true);
    expect(window.joinNotBefore).toBe(0);
  });

  it('closes by time only once told to stop counting (deliveries lost in a reconnect come back too)', () => {
    const window = new RedeliveryWindow(1, 1_000, 30_000, 500);
    window.countNoMore();
    expect(window.observe(delivery(7, true), 1_100)).toBe(false);
    expect(window.joinNotBefore).toBe(31_500);
  });

  it('does not count its own deliveries coming back (held past the ack wait)', () => {
    const window = new RedeliveryWindow(1, 1_000, 30_000, 500);
    window.observe(delivery(10, false), 1_100);
    expect(window.observe(delivery(10, true), 1_200)).toBe(false);
    expect(window.joinNotBefore).toBe(31_500);
  });
});
