// `npm run chaos`: the whole system under load with a fault every few seconds; prints what was lost.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatReport } from './format-report.js';
import { USAGE, parseCommandLine } from './options.js';
import { runChaos } from './run/run-chaos.js';
import { writeRecordedRun } from './write-recorded-run.js';

const defaultRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const parsed = parseCommandLine(process.argv.slice(2), defaultRoot);
if ('code' in parsed) {
  process.stderr.write(`chaos: ${parsed.message}\nusage: ${USAGE}\n`);
  process.exit(2);
}
const log = (line: string): void => {
  process.stdout.write(`[chaos ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
};
// The test-support launchers unref their children and timers; this keeps the run alive while it waits on them.
const keepAlive = setInterval(() => undefined, 60_000);
const result = await runChaos(parsed.options, log).catch((error: unknown) => {
  process.stderr.write(`chaos: the run could not complete: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(2);
});
clearInterval(keepAlive);
const { run, report } = result;
mkdirSync(dirname(parsed.out), { recursive: true });
writeFileSync(parsed.out, `${JSON.stringify({ options: parsed.options, faults: run.faults, report }, null, 2)}\n`);
if (parsed.record !== null) writeRecordedRun(parsed.record, run);
process.stdout.write(`\n${formatReport(report)}\n\nJSON report: ${parsed.out}\n`);
process.exit(report.ok ? 0 : 1);
