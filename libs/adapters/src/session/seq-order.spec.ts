import { SeqOrder } from './seq-order.js';

describe('SeqOrder', () => {
  it('releases the next number at once when nothing waits', () => {
    const order = new SeqOrder<string>(4);
    expect(order.releaseIfNext(1)).toBe(true);
    expect(order.releaseIfNext(2)).toBe(true);
    expect(order.lastReleased).toBe(2);
  });

  it('leaves a duplicate, a record after a gap, and any record while others wait to offer()', () => {
    const order = new SeqOrder<string>(4);
    expect(order.releaseIfNext(2)).toBe(false);
    expect(order.offer(2, 'r2')).toEqual({ kind: 'held' });
    // 1 is next, but 2 waits: only offer() releases both, in order.
    expect(order.releaseIfNext(1)).toBe(false);
    expect(order.offer(1, 'r1')).toEqual({ kind: 'ready', items: ['r1', 'r2'] });
    expect(order.releaseIfNext(2)).toBe(false);
    expect(order.offer(2, 'again')).toEqual({ kind: 'duplicate' });
    expect(order.lastReleased).toBe(2);
    expect(order.heldCount).toBe(0);
  });

  it('gives a gap up when more than its limit of items wait behind it', () => {
    const order = new SeqOrder<string>(2);
    expect(order.offer(2, 'r2')).toEqual({ kind: 'held' });
    expect(order.offer(3, 'r3')).toEqual({ kind: 'held' });
    expect(order.offer(4, 'r4')).toEqual({ kind: 'overflow', missing: 1 });
    expect(order.heldCount).toBe(0);
  });

  it('forgets what it holds: the items come again, in another order, and are released as if new', () => {
    const order = new SeqOrder<string>(4);
    expect(order.offer(3, 'r3')).toEqual({ kind: 'held' });
    order.forgetHeld();
    expect(order.heldCount).toBe(0);
    expect(order.offer(1, 'r1')).toEqual({ kind: 'ready', items: ['r1'] });
    expect(order.offer(3, 'r3 again')).toEqual({ kind: 'held' });
    expect(order.offer(2, 'r2')).toEqual({ kind: 'ready', items: ['r2', 'r3 again'] });
  });
});
