/**
 * How late this process's event loop runs: a timer every `intervalMs` notes how much later than asked it
 * fired. The figure is the worst lateness of the last `windowSamples` ticks, so one slow turn counts for a
 * moment and a loop that keeps falling behind keeps counting. Read by admission control (a gateway whose loop
 * lags refuses new streams before its open ones degrade).
 */
export class EventLoopLag {
  private timer: NodeJS.Timeout | undefined;
  private readonly samples: number[] = [];

  constructor(
    private readonly intervalMs = 100,
    private readonly windowSamples = 10,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** The worst lag of the recent ticks, in ms (0 before the first tick). */
  get lagMs(): number {
    return this.samples.length === 0 ? 0 : Math.max(...this.samples);
  }

  start(): void {
    let expected = this.clock() + this.intervalMs;
    this.timer = setInterval(() => {
      const now = this.clock();
      this.samples.push(Math.max(0, now - expected));
      if (this.samples.length > this.windowSamples) this.samples.shift();
      expected = now + this.intervalMs;
    }, this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
