import { waitFor } from '@llm-stream/testing';
import { EventLoopLag } from './event-loop-lag.js';

describe('EventLoopLag', () => {
  it('reports a loop that was blocked, and forgets it once the loop runs on time again', async () => {
    const lag = new EventLoopLag(20, 5);
    lag.start();
    try {
      await waitFor(() => lag.lagMs >= 0 && lag.lagMs < 50, { description: 'a first on-time tick' });
      const blockedUntil = performance.now() + 300;
      while (performance.now() < blockedUntil) {
        // The event loop is blocked: the timer cannot fire.
      }
      await waitFor(() => lag.lagMs >= 250, { description: 'the blocked turn to be measured' });
      await waitFor(() => lag.lagMs < 50, { description: 'the lag to be forgotten after five on-time ticks' });
    } finally {
      lag.stop();
    }
  });
});
