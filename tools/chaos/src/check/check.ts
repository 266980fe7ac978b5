import { assertNever, parseGatewayInstanceId } from '@llm-stream/contract';
import type { FaultKind, FaultRecord } from '../fault-kinds.js';
import type { ClientRecord, RecordedRun, ServedBody } from '../recorded-run.js';
import { lostFrames } from './lost-frames.js';
import { describeUnlogged, loggedContent, unloggedEvents } from './not-logged.js';
import { retryWaitWithin } from './retry-waits.js';
import { outcomeMismatch, outcomeOf } from './outcome.js';
import type { CheckName, FaultRow, Finding, Report } from './report.js';
import { isTerminalType, sequenceFindings, storedFindings } from './sequence.js';

/** A gap longer than this in another stream's events during a slow-reader window means the slow reader slowed it. */
export const SLOWDOWN_GAP_MS = 3_000;

const CHECK_NAMES: readonly CheckName[] = [
  'missing-terminal',
  'duplicate-terminal',
  'wrong-outcome',
  'client-gap',
  'client-duplicate',
  'backend-gap',
  'backend-duplicate',
  'client-not-logged',
  'backend-not-logged',
  'stored-gap',
  'stored-duplicate',
  'lost-frames',
  'audit-missing-events',
  'audit-verify-failed',
  'slowed-by-slow-reader',
];

/**
 * The gap between two of a client's events (at `from` and `to`) that the system may be blamed for: without
 * the time its stream's gateway waited between upstream attempts by design (retryWaitWithin), which only a
 * gap longer than {@link SLOWDOWN_GAP_MS} needs.
 */
type EventGap = (client: ClientRecord, from: number, to: number) => number;

interface StreamResult {
  readonly client: ClientRecord;
  readonly findings: Finding[];
  readonly framesSent: number;
  readonly framesLost: number;
  readonly clientNotLogged: number;
  readonly backendNotLogged: number;
  readonly expected: boolean;
  readonly explained: boolean;
  readonly oneTerminal: boolean;
}

function overlaps(client: ClientRecord, fault: FaultRecord): boolean {
  return client.startedAt <= fault.endedAt && client.endedAt >= fault.startedAt;
}

/**
 * The gateway holding the stream's upstream connection was killed while the stream ran. Faults name a gateway
 * by its GATEWAY_ID; the stored gateway id is its instance id (`<GATEWAY_ID>@<instance>`).
 */
function gatewayDied(run: RecordedRun, client: ClientRecord, gatewayId: string | null): boolean {
  const name = gatewayId === null ? null : parseGatewayInstanceId(gatewayId).name;
  return run.faults.some(
    (fault) => (fault.kind === 'kill-gateway' || fault.kind === 'replace-gateway') && fault.target === name && overlaps(client, fault),
  );
}

function checkStream(run: RecordedRun, client: ClientRecord, served: readonly ServedBody[]): StreamResult {
  const findings: Finding[] = [];
  const streamId = client.streamId;
  const add = (check: CheckName, detail: string): void => {
    findings.push({ key: client.key, streamId, check, detail });
  };
  const empty = { client, findings, framesSent: 0, framesLost: 0, clientNotLogged: 0, backendNotLogged: 0, expected: false, explained: false, oneTerminal: false };
  if (streamId === null) {
    // Refused before it started: only a client that got a 200 and no stream is a defect.
    if (client.requests.some((request) => request.status === 200)) add('missing-terminal', 'a 200 without a stream id or any event');
    return { ...empty, findings };
  }
  const stored = run.stored[streamId] ?? [];
  const backend = run.backend[streamId] ?? [];
  const audit = run.audit[streamId];

  const ofClient = sequenceFindings(client.events);
  const ofBackend = sequenceFindings(backend);
  const storedTerminals = new Set(stored.filter((event) => isTerminalType(event.type)).map((event) => event.seq)).size;
  const ofStored = storedFindings(
    stored.map((event) => event.seq),
    storedTerminals,
  );
  for (const [where, found] of [
    ['client', ofClient],
    ['backend', ofBackend],
    ['stored', ofStored],
  ] as const) {
    if (found.terminals === 0) add('missing-terminal', `${where} saw no terminal event`);
    if (found.terminals > 1) add('duplicate-terminal', `${where} saw ${found.terminals} terminal events`);
    if (found.gaps > 0) add(`${where}-gap`, `${found.gaps} gap(s) in ${where} seqs`);
    if (found.duplicates > 0) add(`${where}-duplicate`, `${found.duplicates} duplicate seq(s) at the ${where}`);
  }
  if (audit?.status === 'running') add('missing-terminal', 'the audit log shows it running');

  // The gateway's projection withholds whole events (reasoning without the key's visibility) and never edits
  // one, so what a client received is compared with the stored event as it is.
  const logged = loggedContent(stored);
  const clientUnlogged = unloggedEvents(client.events, logged);
  const backendUnlogged = unloggedEvents(backend, logged);
  if (clientUnlogged.length > 0) add('client-not-logged', describeUnlogged('client', clientUnlogged));
  if (backendUnlogged.length > 0) add('backend-not-logged', describeUnlogged('backend', backendUnlogged));

  const gatewayId = audit?.gatewayId ?? null;
  const died = gatewayDied(run, client, gatewayId);
  const outcome = outcomeOf(stored);
  let expected = false;
  let explained = false;
  if (outcome.terminal !== null) {
    const mismatch =
      client.workload.kind === 'transcript'
        ? outcomeMismatch(outcome, client.workload.expect)
        : outcomeMismatch(outcome, { terminal: 'completed', stop_reason_normalized: 'end_turn', blocks: [{ kind: 'text' }] });
    const interruptedByFault = mismatch !== null && outcome.terminal === 'interrupted' && died;
    if (mismatch === null) expected = true;
    else if (interruptedByFault) explained = true;
    else add('wrong-outcome', `${mismatch}${outcome.errorCategory === null ? '' : ` (${outcome.errorCategory})`}`);
    const lastClient = client.events.at(-1);
    const storedTerminal = stored.find((event) => isTerminalType(event.type));
    if (storedTerminal !== undefined && lastClient !== undefined && isTerminalType(lastClient.type) && lastClient.seq !== storedTerminal.seq) {
      add('wrong-outcome', `the client's terminal is seq ${lastClient.seq}, the stored one seq ${storedTerminal.seq}`);
    }
  }

  let framesSent = 0;
  let framesLost = 0;
  if (audit === undefined) {
    add('audit-missing-events', `the audit log has no stream (${new Set(stored.map((event) => event.seq)).size} events stored in NATS)`);
  } else {
    const inAudit = new Set(audit.eventSeqs);
    const missing = [...new Set(stored.map((event) => event.seq))].filter((seq) => !inAudit.has(seq)).length;
    if (missing > 0) add('audit-missing-events', `${missing} stored event(s) missing from the audit log`);
    if (!audit.verifyOk) add('audit-verify-failed', audit.verifyDetail);
    for (const attempt of lostFrames(served, audit.raw, died)) {
      framesSent += attempt.sent;
      framesLost += attempt.lost;
      if (attempt.lost > 0) add('lost-frames', `attempt ${attempt.attempt}: ${attempt.lost} of ${attempt.sent} frames missing from the raw trace`);
    }
  }
  const oneTerminal = ofClient.terminals === 1 && ofBackend.terminals === 1 && ofStored.terminals === 1;
  return {
    client,
    findings,
    framesSent,
    framesLost,
    clientNotLogged: clientUnlogged.length,
    backendNotLogged: backendUnlogged.length,
    expected,
    explained,
    oneTerminal,
  };
}

/** Each pair of neighbours: (a, b), (b, c), ... */
function* consecutive<T>(items: readonly T[]): Generator<readonly [T, T]> {
  let previous: T | undefined;
  let first = true;
  for (const item of items) {
    if (!first) yield [previous as T, item];
    previous = item;
    first = false;
  }
}

/**
 * When each fault stops weighing on the system, for excusing a slowdown. An overload burst's record ends when
 * its last extra stream started, but those streams then run: the system carries them (three times the load in
 * the 2026-12-04 chaos run, 603 streams open 20 s after the burst) until the last one ends.
 */
function effectWindows(run: RecordedRun): FaultRecord[] {
  return run.faults.map((fault) => {
    if (fault.kind !== 'overload') return fault;
    let endedAt = fault.endedAt;
    for (const client of run.clients) {
      if (client.burst && client.startedAt >= fault.startedAt && client.startedAt <= fault.endedAt) endedAt = Math.max(endedAt, client.endedAt);
    }
    return { ...fault, endedAt };
  });
}

/** A fault of `faults` weighs on the system at some time between `from` and `to`. */
function weighedOn(faults: readonly FaultRecord[], from: number, to: number): boolean {
  return faults.some((fault) => fault.startedAt <= to && fault.endedAt >= from);
}

/** Seconds since the run started, for a finding's detail. */
function runTime(run: RecordedRun, at: number): string {
  return `t=${((at - run.startedAt) / 1000).toFixed(1)} s`;
}

/**
 * Other streams' longest event gap inside each slow-reader window, when no other fault weighs on the system
 * during that gap (`weighing`: effectWindows), measured by `gapOf`.
 */
function slowdownFindings(run: RecordedRun, weighing: readonly FaultRecord[], gapOf: EventGap): Finding[] {
  const findings: Finding[] = [];
  const windows = run.faults.filter((fault) => fault.kind === 'slow-reader');
  const others = weighing.filter((fault) => fault.kind !== 'slow-reader');
  for (const window of windows) {
    for (const client of run.clients) {
      if (client.slowReader || !overlaps(client, window)) continue;
      for (const [previous, next] of consecutive(client.events)) {
        const from = previous.at;
        const to = next.at;
        const inside = to >= window.startedAt && from <= window.endedAt;
        const excused = weighedOn(others, from, to);
        const gap = gapOf(client, from, to);
        if (inside && !excused && gap > SLOWDOWN_GAP_MS) {
          findings.push({ key: client.key, streamId: client.streamId, check: 'slowed-by-slow-reader', detail: `${Math.round(gap)} ms without an event, from ${runTime(run, from)}` });
          break;
        }
      }
    }
  }
  return findings;
}

/**
 * Gaps longer than {@link SLOWDOWN_GAP_MS} between a client's events while no fault weighed on the system,
 * measured by `gapOf`.
 */
function stalls(run: RecordedRun, weighing: readonly FaultRecord[], gapOf: EventGap): Report['stalls'] {
  let streams = 0;
  let maxGapMs = 0;
  for (const client of run.clients) {
    if (client.slowReader) continue;
    let stalled = false;
    for (const [previous, next] of consecutive(client.events)) {
      const from = previous.at;
      const to = next.at;
      const duringFault = weighedOn(weighing, from, to);
      const gap = gapOf(client, from, to);
      if (!duringFault && gap > SLOWDOWN_GAP_MS) {
        stalled = true;
        maxGapMs = Math.max(maxGapMs, gap);
      }
    }
    if (stalled) streams += 1;
  }
  return { streams, maxGapMs: Math.round(maxGapMs) };
}

function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? null;
}

/** The kind of the first fault a stream was open during, or null: its defects are charged to that row. */
function firstFaultKind(run: RecordedRun, client: ClientRecord): FaultKind | null {
  let first: FaultRecord | undefined;
  for (const fault of run.faults) if (overlaps(client, fault) && (first === undefined || fault.startedAt < first.startedAt)) first = fault;
  return first?.kind ?? null;
}

/** The fault table's per-stream defect columns. */
type DefectColumn = 'missingTerminals' | 'gaps' | 'duplicates' | 'wrongOutcomes' | 'notLogged';

/** The column a finding counts in; null for the checks the table shows otherwise (frames) or not at all. */
function columnOf(check: CheckName): DefectColumn | null {
  switch (check) {
    case 'missing-terminal':
      return 'missingTerminals';
    case 'client-gap':
    case 'backend-gap':
    case 'stored-gap':
      return 'gaps';
    case 'client-duplicate':
    case 'backend-duplicate':
    case 'stored-duplicate':
    case 'duplicate-terminal':
      return 'duplicates';
    case 'wrong-outcome':
      return 'wrongOutcomes';
    case 'client-not-logged':
    case 'backend-not-logged':
      return 'notLogged';
    case 'lost-frames':
    case 'audit-missing-events':
    case 'audit-verify-failed':
    case 'slowed-by-slow-reader':
      return null;
    default:
      return assertNever(check, 'check name');
  }
}

function faultRow(
  kind: FaultRow['kind'],
  faults: readonly FaultRecord[],
  results: readonly StreamResult[],
  firstFault: ReadonlyMap<StreamResult, FaultKind | null>,
): FaultRow {
  const hit =
    kind === 'all' ? results : kind === 'none' ? results.filter((r) => firstFault.get(r) === null) : results.filter((r) => faults.some((fault) => overlaps(r.client, fault)));
  const charged = kind === 'all' || kind === 'none' ? hit : results.filter((r) => firstFault.get(r) === kind);
  const streamsWith = (column: DefectColumn): number => charged.filter((r) => r.findings.some((f) => columnOf(f.check) === column)).length;
  const recoveries: number[] = [];
  for (const fault of faults) {
    for (const r of hit) {
      const next = r.client.events.find((event) => event.at >= fault.endedAt);
      if (overlaps(r.client, fault) && next !== undefined) recoveries.push(next.at - fault.endedAt);
    }
  }
  recoveries.sort((a, b) => a - b);
  return {
    kind,
    runs: faults.length,
    streamsHit: hit.length,
    lostFrames: charged.reduce((sum, r) => sum + r.framesLost, 0),
    missingTerminals: streamsWith('missingTerminals'),
    gaps: streamsWith('gaps'),
    duplicates: streamsWith('duplicates'),
    wrongOutcomes: streamsWith('wrongOutcomes'),
    notLogged: streamsWith('notLogged'),
    recoveryP50Ms: percentile(recoveries, 0.5),
    recoveryMaxMs: recoveries.at(-1) ?? null,
  };
}

/**
 * The independent checker: compares, for every client stream, what the upstream served, what the client saw
 * (after its resumes), what the backend subscriber saw, what JetStream stored and what the audit log holds.
 * Pure: the same recorded run always gives the same report.
 */
export function check(run: RecordedRun): Report {
  const servedByScenario = new Map<string, ServedBody[]>();
  for (const body of run.served) {
    if (body.scenario === null) continue;
    const list = servedByScenario.get(body.scenario) ?? [];
    list.push(body);
    servedByScenario.set(body.scenario, list);
  }
  for (const list of servedByScenario.values()) list.sort((a, b) => a.startedAt - b.startedAt);
  const results = run.clients.map((client) => checkStream(run, client, servedByScenario.get(client.key) ?? []));
  const weighing = effectWindows(run);
  const gapOf: EventGap = (client, from, to) =>
    to - from <= SLOWDOWN_GAP_MS ? to - from : to - from - retryWaitWithin(servedByScenario.get(client.key) ?? [], from, to);
  const findings = [...results.flatMap((r) => r.findings), ...slowdownFindings(run, weighing, gapOf)];
  const refusals: Record<string, number> = {};
  for (const client of run.clients) {
    for (const request of client.requests) {
      if (request.status === 200) continue;
      const status = request.status === null ? 'none' : String(request.status);
      refusals[status] = (refusals[status] ?? 0) + 1;
    }
  }
  const kinds = [...new Set(run.faults.map((fault) => fault.kind))];
  const firstFault = new Map(results.map((r) => [r, firstFaultKind(run, r.client)] as const));
  const counts = Object.fromEntries(CHECK_NAMES.map((name) => [name, findings.filter((f) => f.check === name).length])) as Record<CheckName, number>;
  const accepted = results.filter((r) => r.client.streamId !== null);
  return {
    ok: findings.length === 0,
    seed: run.seed,
    durationMs: run.endedAt - run.startedAt,
    streamsStarted: run.clients.length,
    streamsAccepted: accepted.length,
    exactlyOneTerminal: accepted.filter((r) => r.oneTerminal).length,
    outcomeAsExpected: accepted.filter((r) => r.expected || r.explained).length,
    explainedInterruptions: accepted.filter((r) => r.explained).length,
    framesSent: results.reduce((sum, r) => sum + r.framesSent, 0),
    framesLost: results.reduce((sum, r) => sum + r.framesLost, 0),
    auditMissingEvents: counts['audit-missing-events'],
    verifyFailures: counts['audit-verify-failed'],
    notLoggedEvents: {
      client: results.reduce((sum, r) => sum + r.clientNotLogged, 0),
      backend: results.reduce((sum, r) => sum + r.backendNotLogged, 0),
    },
    refusals,
    stalls: stalls(run, weighing, gapOf),
    byFault: [
      ...kinds.map((kind) => faultRow(kind, run.faults.filter((fault) => fault.kind === kind), results, firstFault)),
      faultRow('none', [], results, firstFault),
      faultRow('all', [], results, firstFault),
    ],
    findings,
    counts,
  };
}
