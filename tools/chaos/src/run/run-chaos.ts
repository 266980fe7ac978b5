import { join } from 'node:path';
import type { NatsConnection } from '@nats-io/transport-node';
import { check } from '../check/check.js';
import type { Report } from '../check/report.js';
import type { FaultKind, FaultRecord } from '../fault-kinds.js';
import { Random } from '../random.js';
import type { AuditView, RecordedRun } from '../recorded-run.js';
import { buildSchedule, describeFault } from '../schedule.js';
import { inBatches, readAudit } from './audit-reader.js';
import { waitForAuditCaughtUp } from './audit-settle.js';
import { BackendSubscriber } from './backend-subscriber.js';
import { injectFault } from './fault-runner.js';
import { Load } from './load.js';
import { readServedBodies } from './served-bodies.js';
import { readStoredEvents } from './stored-events.js';
import { TENANTS, startSystem } from './system.js';
import { loadCatalogue } from './workload.js';

export interface ChaosOptions {
  readonly minutes: number;
  readonly streams: number;
  readonly faultEverySeconds: number;
  readonly seed: number;
  readonly faults: readonly FaultKind[];
  readonly store: 'sqlite' | 'postgres';
  /** The worktree whose built apps and conformance transcripts are used. */
  readonly root: string;
  /** Extra streams of an overload burst. */
  readonly burstSize: number;
  /** After the load stops, how long clients may take to get their terminal events. */
  readonly drainSeconds: number;
  /** Where every service (and nats-server) writes its whole log, one file per service name; null: not kept. */
  readonly logDir: string | null;
}

const AUDIT_SETTLE_MS = 120_000;

/** Runs the system under load with the scheduled faults, records everything, and checks it. */
export async function runChaos(options: ChaosOptions, log: (line: string) => void): Promise<{ run: RecordedRun; report: Report }> {
  const durationMs = options.minutes * 60_000;
  const schedule = buildSchedule(options.seed, durationMs, options.faultEverySeconds * 1_000, options.faults);
  log(`seed ${options.seed}: ${options.streams} streams for ${options.minutes} min, store ${options.store}, root ${options.root}`);
  log(`schedule (${schedule.length} faults): ${schedule.map(describeFault).join(', ') || 'none'}`);
  const system = await startSystem({ root: options.root, store: options.store, logDir: options.logDir });
  try {
    const backend = await BackendSubscriber.start(
      TENANTS.map((t) => t.tenant),
      (tenant) => {
        const users = system.credentials.tenants[tenant];
        if (users === undefined) throw new Error(`no NATS credentials for tenant ${tenant}`);
        return system.connectAs(users.backend, `chaos-backend-${tenant}`);
      },
    );
    // The checker reads the platform's streams as their administrator.
    const connectChecker = (): Promise<NatsConnection> => system.connectAs(system.credentials.platform.provisioner, 'chaos-checker');
    const drain = new AbortController();
    const load = new Load({
      replayUrl: system.replay.url,
      gateways: system.gateways.map((gateway) => gateway.url),
      streams: options.streams,
      catalogue: loadCatalogue(join(options.root, 'conformance', 'transcripts')),
      random: new Random(options.seed),
      signal: drain.signal,
    });
    const startedAt = Date.now();
    load.start();
    const progress = setInterval(() => {
      log(`t=${Math.round((Date.now() - startedAt) / 1000)}s: ${load.records.length} streams finished, ${load.open()} open`);
    }, 15_000);
    const faults: FaultRecord[] = [];
    for (const planned of schedule) {
      // A slow repair (a restart under load takes seconds) delays the rest; none starts after the load's end.
      if (Date.now() - startedAt >= durationMs) {
        log(`${describeFault(planned)}: not run, the load ended first`);
        continue;
      }
      const wait = startedAt + planned.atMs - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const record = await injectFault(system, planned, load, options.burstSize);
      faults.push(record);
      log(`${describeFault(planned)} (began at t=${Math.round((record.startedAt - startedAt) / 1000)}s): ${record.target}, repaired after ${record.endedAt - record.startedAt} ms${record.detail === '' ? '' : ` (${record.detail})`}`);
    }
    const left = startedAt + durationMs - Date.now();
    if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
    log(`load stops after ${load.records.length} finished streams; draining for up to ${options.drainSeconds} s`);
    const drainTimer = setTimeout(() => {
      drain.abort();
    }, options.drainSeconds * 1_000);
    await load.stop();
    clearTimeout(drainTimer);
    clearInterval(progress);
    const endedAt = Date.now();

    log('waiting for the audit log to take every stored message');
    if (!(await waitForAuditCaughtUp(connectChecker, AUDIT_SETTLE_MS))) {
      log(`the audit log has not caught up after ${AUDIT_SETTLE_MS / 1000} s; recording it as it is`);
    }
    const stored = await readStoredEvents(connectChecker);
    const audit: Record<string, AuditView> = {};
    const keyOf = new Map<string, string>(TENANTS.map((t) => [t.tenant, t.key]));
    const accepted = load.records.filter((client) => client.streamId !== null);
    await inBatches(accepted, 8, async (client) => {
      const streamId = client.streamId ?? '';
      const view = await readAudit(system.audit.url, keyOf.get(client.tenant) ?? '', streamId);
      if (view !== null) audit[streamId] = view;
    });
    await backend.close();
    if (backend.failure !== null) log(`the backend subscriber failed: ${backend.failure}`);
    if (backend.gaps.length > 0) log(`the backend subscriber gave up on ${backend.gaps.length} gap(s)`);
    const run: RecordedRun = {
      seed: options.seed,
      startedAt,
      endedAt,
      faults,
      clients: load.records,
      served: readServedBodies(system.servedLogPath),
      backend: Object.fromEntries(backend.seen),
      stored: Object.fromEntries(stored),
      audit,
    };
    return { run, report: check(run) };
  } finally {
    await system.stop();
  }
}
