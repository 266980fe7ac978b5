import { ReplayCursors } from './raw-replay-cursors.js';

describe('the replay cursors of paged raw traces', () => {
  let now = 0;
  const clock = (): number => now;

  beforeEach(() => {
    now = 1_000;
  });

  it('continues the cursor a page left, for a read at or after its position', () => {
    const cursors = new ReplayCursors(4, 60_000, clock);
    const first = cursors.take('st_a', 0);
    first.lastJsSeq = 40;
    cursors.put('st_a', first);
    expect(cursors.take('st_a', 40)).toBe(first);
    // Taken out while a read uses it: a concurrent read of the same stream starts fresh.
    expect(cursors.take('st_a', 40)).not.toBe(first);
  });

  it('starts fresh for a read before the kept position (another viewer, a reload) or after an idle minute', () => {
    const cursors = new ReplayCursors(4, 60_000, clock);
    const kept = cursors.take('st_a', 0);
    kept.lastJsSeq = 40;
    cursors.put('st_a', kept);
    const earlier = cursors.take('st_a', 10);
    expect(earlier).not.toBe(kept);
    expect(earlier.lastJsSeq).toBe(0);
    cursors.put('st_a', kept);
    now += 60_001;
    expect(cursors.take('st_a', 40).lastJsSeq).toBe(0);
  });

  it('keeps at most its capacity, dropping the least recently used', () => {
    const cursors = new ReplayCursors(2, 60_000, clock);
    for (const id of ['st_a', 'st_b', 'st_c']) {
      const cursor = cursors.take(id, 0);
      cursor.lastJsSeq = 5;
      cursors.put(id, cursor);
      now += 1;
    }
    expect(cursors.size).toBe(2);
    expect(cursors.take('st_a', 5).lastJsSeq).toBe(0);
    expect(cursors.take('st_c', 5).lastJsSeq).toBe(5);
  });
});
