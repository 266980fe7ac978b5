import type { ClientRecord } from '../recorded-run.js';
import type { Random } from '../random.js';
import type { LoadFaults } from './fault-runner.js';
import { runClientStream, type SlowReading } from './client-stream.js';
import { TENANTS } from './system.js';
import { planSlowReader, planStream, type Catalogue, type StreamPlan } from './workload.js';

export interface LoadOptions {
  readonly replayUrl: string;
  readonly gateways: readonly string[];
  readonly streams: number;
  readonly catalogue: Catalogue;
  readonly random: Random;
  /** Aborts every client: the end of the drain. */
  readonly signal: AbortSignal;
}

/** Keeps `streams` client streams open at all times until {@link stop}; each finished one is replaced at once. */
export class Load implements LoadFaults {
  readonly records: ClientRecord[] = [];
  private readonly running = new Set<Promise<void>>();
  private counter = 0;
  private stopped = false;

  constructor(private readonly options: LoadOptions) {}

  /** Clients running now (burst and slow reader included). */
  open(): number {
    return this.running.size;
  }

  start(): void {
    for (let n = 0; n < this.options.streams; n += 1) this.keepSlot();
  }

  /** No new streams from now on; resolves when every client has its terminal event or was aborted. */
  async stop(): Promise<void> {
    this.stopped = true;
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  async burst(count: number, holdMs: number): Promise<string> {
    const started = Date.now();
    for (let n = 0; n < count; n += 1) {
      void this.launch(this.plan({ short: true }), true);
      const due = started + ((n + 1) * holdMs) / count;
      // Read the clock once: a second read can be past `due` (a negative timeout, which Node warns about).
      const wait = due - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
    return `${count} extra streams in ${Date.now() - started} ms`;
  }

  async slowReader(holdMs: number): Promise<{ startedAt: number; endedAt: number; key: string; paused: boolean }> {
    const plan = this.plan({ short: false, synthetic: true });
    return new Promise((resolve) => {
      let paused = false;
      const slow: SlowReading = {
        afterEvents: 3,
        pauseMs: holdMs,
        onPause: (startedAt, endedAt) => {
          paused = true;
          resolve({ startedAt, endedAt, key: plan.key, paused });
        },
      };
      // A stream that ends before its third event (refused, broken) never pauses: the fault is then void.
      void this.launch(plan, false, slow).finally(() => {
        const now = Date.now();
        if (!paused) resolve({ startedAt: now, endedAt: now, key: plan.key, paused });
      });
    });
  }

  private plan(options: { readonly short: boolean; readonly synthetic?: boolean }): StreamPlan {
    this.counter += 1;
    const key = `sc_chaos_${this.counter}`;
    const tenantIndex = this.counter % TENANTS.length;
    if (options.synthetic === true) return planSlowReader(key, tenantIndex);
    return planStream(this.options.random, this.options.catalogue, key, tenantIndex, { short: options.short });
  }

  private async register(plan: StreamPlan): Promise<void> {
    const response = await fetch(`${this.options.replayUrl}/_replay/scenarios`, {
      method: 'POST',
      body: JSON.stringify({ id: plan.key, responses: [plan.response] }),
    });
    if (response.status !== 201) throw new Error(`scenario ${plan.key} rejected: ${await response.text()}`);
  }

  private keepSlot(): void {
    if (this.stopped || this.options.signal.aborted) return;
    void this.launch(this.plan({ short: false }), false).finally(() => {
      setTimeout(() => {
        this.keepSlot();
      }, 5);
    });
  }

  /** Registers the plan's scenario, then runs its client; resolves when the client is done. */
  private launch(plan: StreamPlan, burst: boolean, slow?: SlowReading): Promise<void> {
    const first = this.counter % this.options.gateways.length;
    const client = { gateways: this.options.gateways, first, signal: this.options.signal, burst, ...(slow === undefined ? {} : { slow }) };
    const run = this.register(plan)
      .then(() => runClientStream(plan, client))
      .then(
        (record) => {
          this.records.push(record);
        },
        (error: unknown) => {
          process.stderr.write(`[chaos] ${plan.key}: ${String(error)}\n`);
        },
      );
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
    return run;
  }
}
