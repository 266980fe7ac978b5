import { repoRoot } from '@llm-stream/testing';
import type { FaultKind } from '../src/fault-kinds.js';
import { formatReport } from '../src/format-report.js';
import { runChaos } from '../src/run/run-chaos.js';

/**
 * The fault kinds the system survives today, run in `npm test`. The others are left out until the issue
 * that fixes them lands (measured with `npm run chaos`, figures in the README's Reliability section):
 */
const SURVIVED = ['replace-gateway', 'kill-normalizer', 'kill-audit-log'] as const satisfies readonly FaultKind[];

const LEFT_OUT: Readonly<Record<Exclude<FaultKind, (typeof SURVIVED)[number]>, string>> = {
  // Leases are keyed by GATEWAY_ID only: a gateway restarted in place (same id, as a container restarted in
  // its pod) renews the lease of its dead predecessor, whose streams then never end.
  'kill-gateway': 'streams of the killed instance are left without a terminal event (lease renewed under the same GATEWAY_ID)',
  'nats-kill': 'NATS restart losses (issue 11): streams left without a terminal event, frames missing from the raw trace',
  'nats-term': 'NATS restart losses (issue 11), as nats-kill',
  'nats-pause': 'a 5-30 s pause fools the lease logic (issue 11): healthy streams end interrupted',
  overload: 'no admission control yet (issue 11): 200s without events, clients without response headers',
  'slow-reader': 'other streams stall for about 5 s while one client stops reading (and under plain load too)',
  'postgres-restart': 'this run uses the SQLite store (kept small for CI); npm run chaos -- --store postgres runs it',
};

describe('chaos run (npm test size)', () => {
  it(`loses nothing under ${SURVIVED.join(', ')} (left out: ${Object.keys(LEFT_OUT).join(', ')})`, async () => {
    const lines: string[] = [];
    const { report } = await runChaos(
      {
        minutes: 1.25,
        streams: 12,
        faultEverySeconds: 15,
        seed: 20_261_201,
        faults: SURVIVED,
        store: 'sqlite',
        root: repoRoot(),
        burstSize: 0,
        drainSeconds: 60,
      },
      (line) => lines.push(line),
    );
    const summary = `${lines.join('\n')}\n${formatReport(report)}`;
    expect({ findings: report.findings, summary }).toEqual({ findings: [], summary });
    expect(report.streamsAccepted).toBeGreaterThan(50);
    expect(report.byFault.filter((row) => row.kind !== 'all' && row.kind !== 'none').map((row) => row.kind).sort()).toEqual([...SURVIVED].sort());
    expect(report.framesSent).toBeGreaterThan(1_000);
  }, 400_000);
});
