import { waitFor } from '@llm-stream/testing';
import { EventLoopLag } from './event-loop-lag.js';

/** Keeps the event loop busy for `busyMs` of every `everyMs` until stopped: a saturated process. */
function saturate(busyMs: number, everyMs: number): () => void {
  const timer = setInterval(() => {
    const until = performance.now() + busyMs;
    while (performance.now() < until) {
      // Busy: nothing else runs meanwhile.
    }
  }, everyMs);
  return () => {
    clearInterval(timer);
  };
}

describe('EventLoopLag', () => {
  it('reports a loop that keeps falling behind, and forgets it once the loop runs on time again', async () => {
    const lag = new EventLoopLag(20, 5);
    lag.start();
    const stop = saturate(60, 5);
    try {
      await waitFor(() => lag.lagMs >= 30, { description: 'the sustained lag to be measured' });
    } finally {
      stop();
    }
    await waitFor(() => lag.lagMs < 15, { description: 'the lag to be forgotten after on-time ticks' });
    lag.stop();
  });

  it('ignores one long pause: the ticks after it are on time', async () => {
    const lag = new EventLoopLag(20, 5);
    lag.start();
    try {
      await waitFor(() => lag.lagMs < 15, { description: 'on-time ticks' });
      const ticksBefore = lag.sampleCount;
      const blockedUntil = performance.now() + 300;
      while (performance.now() < blockedUntil) {
        // One long pause.
      }
      await waitFor(() => lag.sampleCount >= ticksBefore + 3, { description: 'three ticks after the pause' });
      expect(lag.lagMs).toBeLessThan(100);
    } finally {
      lag.stop();
    }
  });
});
