/**
 * Pauses that end early when woken: a loop's wait between two tries, cut short when the loop is stopped.
 * Any number of pauses may wait at once; `wake()` ends all of them.
 */
export class WakeablePause {
  private readonly wakers = new Set<() => void>();

  /** Resolves after `ms`, or at the next {@link wake}. */
  wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.wakers.add(wake);
    });
  }

  wake(): void {
    for (const wake of [...this.wakers]) wake();
  }
}
