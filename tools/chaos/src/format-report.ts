import type { Report } from './check/report.js';

function ms(value: number | null): string {
  return value === null ? '-' : `${Math.round(value)} ms`;
}

/** The report as the terminal shows it: the totals, the fault table, then the first findings. */
export function formatReport(report: Report, maxFindings = 40): string {
  const lines = [
    `chaos run, seed ${report.seed}, ${(report.durationMs / 1000).toFixed(0)} s: ${report.ok ? 'NOTHING LOST' : 'LOSSES FOUND'}`,
    `streams started ${report.streamsStarted}, accepted ${report.streamsAccepted}, exactly one terminal ${report.exactlyOneTerminal}, ` +
      `outcome as expected ${report.outcomeAsExpected} (${report.explainedInterruptions} interruptions explained by a gateway kill)`,
    `frames sent ${report.framesSent}, lost ${report.framesLost}; audit: ${report.auditMissingEvents} stream(s) with missing events, ${report.verifyFailures} failing /verify`,
    `events not in the log as received: ${report.notLoggedEvents.client} at clients, ${report.notLoggedEvents.backend} at the backend`,
    `refused requests by status: ${Object.entries(report.refusals).map(([status, count]) => `${status}: ${count}`).join(', ') || 'none'}`,
    `stalls outside any fault (more than 3 s without an event): ${report.stalls.streams} stream(s), longest ${report.stalls.maxGapMs} ms`,
    `findings by check: ${Object.entries(report.counts).filter(([, count]) => count > 0).map(([name, count]) => `${name} ${count}`).join(', ') || 'none'}`,
    '',
    '| fault | runs | streams hit | lost frames | missing terminals | gaps | dups | wrong outcomes | not logged | recovery p50 | recovery max |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...report.byFault.map(
      (row) =>
        `| ${row.kind} | ${row.runs} | ${row.streamsHit} | ${row.lostFrames} | ${row.missingTerminals} | ${row.gaps} | ${row.duplicates} | ${row.wrongOutcomes} | ${row.notLogged} | ${ms(row.recoveryP50Ms)} | ${ms(row.recoveryMaxMs)} |`,
    ),
    '',
  ];
  for (const finding of report.findings.slice(0, maxFindings)) {
    lines.push(`- ${finding.check} ${finding.key} ${finding.streamId ?? '(no stream)'}: ${finding.detail}`);
  }
  if (report.findings.length > maxFindings) lines.push(`- ... and ${report.findings.length - maxFindings} more (see the JSON report)`);
  return lines.join('\n');
}
