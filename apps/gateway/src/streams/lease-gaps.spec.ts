import { LeaseGaps } from './lease-gaps.js';

describe('LeaseGaps', () => {
  it('doubts the lease until a first renewal is heard', () => {
    const gaps = new LeaseGaps(2_000);
    expect(gaps.mayHaveLapsedSince(0, 100)).toBe(true);
    gaps.heard(100);
    expect(gaps.mayHaveLapsedSince(0, 200)).toBe(false);
  });

  it('trusts renewals heard at the lease interval, even with some jitter', () => {
    const gaps = new LeaseGaps(2_000);
    for (let at = 0; at <= 30_000; at += 1_000) gaps.heard(at + (at % 3_000 === 0 ? 900 : 0));
    expect(gaps.mayHaveLapsedSince(0, 31_000)).toBe(false);
  });

  it('doubts the lease for a stream that was open during a silence, not for one opened after it', () => {
    const gaps = new LeaseGaps(2_000);
    gaps.heard(1_000);
    gaps.heard(2_000);
    // Stopped (SIGSTOP) from 2 s to 9 s: the next renewal is heard at 9.5 s.
    gaps.heard(9_500);
    gaps.heard(10_500);
    expect(gaps.mayHaveLapsedSince(1_500, 11_000)).toBe(true);
    expect(gaps.mayHaveLapsedSince(9_500, 11_000)).toBe(true);
    expect(gaps.mayHaveLapsedSince(9_600, 11_000)).toBe(false);
  });

  it('doubts the lease while a silence is still going on, before the next renewal is heard', () => {
    const gaps = new LeaseGaps(2_000);
    gaps.heard(1_000);
    expect(gaps.mayHaveLapsedSince(500, 2_900)).toBe(false);
    expect(gaps.mayHaveLapsedSince(500, 3_100)).toBe(true);
  });

  it('ignores a confirmation that arrives out of order (an older flush answered late)', () => {
    const gaps = new LeaseGaps(2_000);
    gaps.heard(5_000);
    gaps.heard(4_000);
    expect(gaps.mayHaveLapsedSince(0, 6_000)).toBe(false);
  });
});
