import type { Worker } from 'node:worker_threads';
import type { NatsConnection } from '@nats-io/nats-core';
import { startWorkerThread } from './start-worker-thread.js';
import { HELD_ANSWER, MAIN_STALL_MS, type ToProgressThread, type WorkProgressThreadData } from './work-progress-protocol.js';

export type WorkProgressSettings = Omit<WorkProgressThreadData, 'mainStallMs'> & {
  readonly mainStallMs?: number;
  /** The built thread script: `WORK_PROGRESS_THREAD` of `@llm-stream/pipeline/work-progress-thread`. */
  readonly threadFile: URL;
};

/**
 * The main thread's side of work-progress-thread.ts: it tells the thread which items it holds and beats for
 * itself. Until {@link start} resolves (or after the thread died) `running` is false and the owner tells
 * progress itself (`working()`), as it did before the thread existed.
 */
export class WorkProgressKeeper {
  private worker: Worker | undefined;
  private timer: NodeJS.Timeout | undefined;
  private up = false;
  /** What the main thread holds, also before the thread is up (it gets the whole set once it is). */
  private readonly held = new Map<string, string>();

  constructor(private readonly settings: WorkProgressSettings) {}

  /** The thread is connected and tells progress for the held items. */
  get running(): boolean {
    return this.up;
  }

  /** Resolves once the thread is connected and subscribed to holder queries. */
  async start(): Promise<void> {
    const { threadFile, ...settings } = this.settings;
    const data: WorkProgressThreadData = { ...settings, mainStallMs: settings.mainStallMs ?? MAIN_STALL_MS };
    const worker = await startWorkerThread(threadFile, data, 'work-progress thread');
    this.worker = worker;
    worker.on('exit', () => {
      this.up = false;
    });
    // It runs while the process lives but never keeps it alive (a forgotten stop() must not hang an exit).
    worker.unref();
    this.up = true;
    for (const [key, reply] of this.held) this.send({ kind: 'hold', key, reply });
    this.timer = setInterval(() => {
      this.send({ kind: 'beat' });
    }, this.settings.intervalMs);
    this.timer.unref();
  }

  /** The item `key` is held in progress; `reply` is its latest delivery's reply subject. */
  hold(key: string, reply: string): void {
    this.held.set(key, reply);
    this.send({ kind: 'hold', key, reply });
  }

  release(key: string): void {
    this.held.delete(key);
    this.send({ kind: 'release', key });
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.up = false;
    await this.worker?.terminate();
    this.worker = undefined;
  }

  private send(message: ToProgressThread): void {
    if (this.up) this.worker?.postMessage(message);
  }
}

/**
 * Asks whether a live process holds the item whose holder-query subject is `subject`: true when one answers
 * within `timeoutMs`. No answer (nobody holds it, or its holder is dead or stalled) is false; so is a failed
 * request, after which taking the item over is what JetStream's redelivery asks for.
 */
export async function isHeldElsewhere(nc: NatsConnection, subject: string, timeoutMs: number): Promise<boolean> {
  try {
    const answer = await nc.request(subject, '', { timeout: timeoutMs });
    return answer.string() === HELD_ANSWER;
  } catch {
    return false;
  }
}
