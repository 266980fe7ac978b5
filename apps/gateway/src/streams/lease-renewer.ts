import type { Worker } from 'node:worker_threads';
import { startWorkerThread } from '@llm-stream/pipeline';
import { MAIN_STALL_MS, type LeaseWorkerData, type MainThreadBeat } from './lease-worker-protocol.js';

/** Starts the lease worker (lease-worker.ts) and beats for the main thread; `stop()` ends the lease. */
export class LeaseRenewer {
  private worker: Worker | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly settings: Omit<LeaseWorkerData, 'mainStallMs'> & { readonly mainStallMs?: number },
    private readonly openStreams: () => number,
  ) {}

  /** Resolves once the worker is connected and has renewed the lease a first time. */
  async start(): Promise<void> {
    const data: LeaseWorkerData = { ...this.settings, mainStallMs: this.settings.mainStallMs ?? MAIN_STALL_MS };
    const worker = await startWorkerThread(new URL('./lease-worker.js', import.meta.url), data, 'lease worker');
    this.worker = worker;
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
