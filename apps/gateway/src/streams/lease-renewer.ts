import type { Worker } from 'node:worker_threads';
import { startWorkerThread } from '@llm-stream/pipeline';
import { LeaseGaps } from './lease-gaps.js';
import { MAIN_STALL_MS, type LeaseWorkerData, type LeaseWorkerMessage, type MainThreadBeat } from './lease-worker-protocol.js';

/**
 * Starts the lease worker (lease-worker.ts) and beats for the main thread; `stop()` ends the lease. It keeps
 * the renewals the server confirmed, to tell whether the lease may have lapsed while a stream was open.
 */
export class LeaseRenewer {
  private worker: Worker | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly gaps: LeaseGaps;

  constructor(
    private readonly settings: Omit<LeaseWorkerData, 'mainStallMs'> & { readonly mainStallMs?: number },
    private readonly openStreams: () => number,
  ) {
    // Two intervals: a normalizer's lease timeout must be longer (the default is five).
    this.gaps = new LeaseGaps(2 * settings.intervalMs);
  }

  /** Whether a normalizer may have declared this instance lost at some time since `since` (ms). */
  mayHaveLapsedSince(since: number): boolean {
    return this.gaps.mayHaveLapsedSince(since, Date.now());
  }

  /** Resolves once the worker is connected and has renewed the lease a first time. */
  async start(): Promise<void> {
    const data: LeaseWorkerData = { ...this.settings, mainStallMs: this.settings.mainStallMs ?? MAIN_STALL_MS };
    const worker = await startWorkerThread(new URL('./lease-worker.js', import.meta.url), data, 'lease worker');
    this.worker = worker;
    worker.on('message', (message: LeaseWorkerMessage) => {
      if (message !== 'ready') this.gaps.heard(message.at);
    });
    this.timer = setInterval(() => {
      const beat: MainThreadBeat = { openStreams: this.openStreams() };
      worker.postMessage(beat);
    }, this.settings.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.worker?.terminate();
    this.worker = undefined;
  }
}
