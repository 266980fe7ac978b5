import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '@llm-stream/testing';
import { FAULT_KINDS } from '../src/fault-kinds.js';
import { formatReport } from '../src/format-report.js';
import { runChaos } from '../src/run/run-chaos.js';
import { writeRecordedRun } from '../src/write-recorded-run.js';

/**
 * Every fault kind, in `npm test` size: kills and replacements of each service, NATS killed, stopped and paused,
 * an overload burst and a slow reader. PostgreSQL's restart needs the PostgreSQL store; this run uses SQLite
 * (kept small for CI): `npm run chaos -- --store postgres` runs it.
 */
const FAULTS = FAULT_KINDS.filter((kind) => kind !== 'postgres-restart');

/**
 * Every service's whole log and, after a run with findings, the recorded run (the checker's input, `npm run
 * chaos -- --record`): a finding is kept with its evidence, a clean run leaves nothing behind.
 */
const EVIDENCE_DIR = join(repoRoot(), 'tmp', 'chaos-run', new Date().toISOString().replace(/[:.]/g, '-'));

describe('chaos run (npm test size)', () => {
  it(`loses nothing under ${FAULTS.join(', ')}`, async () => {
    const lines: string[] = [];
    const { run, report } = await runChaos(
      {
        // Every kind once (the schedule's first pass), with the holds: a NATS pause of 5-30 s, a 10 s burst,
        // a reader stopped for 30 s.
        minutes: 2.5,
        streams: 12,
        faultEverySeconds: 6,
        seed: 20_261_201,
        faults: FAULTS,
        store: 'sqlite',
        root: repoRoot(),
        burstSize: 400,
        drainSeconds: 60,
        logDir: EVIDENCE_DIR,
      },
      (line) => lines.push(line),
    );
    if (report.findings.length === 0) rmSync(EVIDENCE_DIR, { recursive: true, force: true });
    else {
      writeRecordedRun(join(EVIDENCE_DIR, 'run.json'), run);
      lines.push(`the services' logs and the recorded run are kept in ${EVIDENCE_DIR}`);
    }
    const summary = `${lines.join('\n')}\n${formatReport(report)}`;
    expect({ findings: report.findings, summary }).toEqual({ findings: [], summary });
    expect(report.streamsAccepted).toBeGreaterThan(50);
    expect(report.byFault.filter((row) => row.kind !== 'all' && row.kind !== 'none').map((row) => row.kind).sort()).toEqual([...FAULTS].sort());
    expect(report.framesSent).toBeGreaterThan(1_000);
  }, 600_000);
});
