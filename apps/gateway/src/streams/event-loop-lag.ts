/**
 * How late this process's event loop runs: a timer every `intervalMs` notes how much later than asked it
 * fired. The figure is the median lateness of the last `windowSamples` ticks: a loop that keeps falling
 * behind (every turn slow: the process is saturated) counts, one long pause (a GC, a burst of stream starts,
 * a neighbour taking the CPU for a moment) does not, since the ticks after it are on time again. Read by
 * admission control (a saturated gateway refuses new streams before its open ones degrade).
 */
export class EventLoopLag {
  private timer: NodeJS.Timeout | undefined;
  private readonly samples: number[] = [];
  private count = 0;

  constructor(
    private readonly intervalMs = 100,
    private readonly windowSamples = 10,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** The median lag of the recent ticks, in ms (0 before the first tick). */
  get lagMs(): number {
    const sorted = [...this.samples].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? 0;
  }

  /** Ticks measured so far (for tests that wait for the next ones). */
  get sampleCount(): number {
    return this.count;
  }

  start(): void {
    let expected = this.clock() + this.intervalMs;
    this.timer = setInterval(() => {
      const now = this.clock();
      this.samples.push(Math.max(0, now - expected));
      this.count += 1;
      if (this.samples.length > this.windowSamples) this.samples.shift();
      expected = now + this.intervalMs;
    }, this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
