import { check } from '../src/check/check.js';
import type { CheckName } from '../src/check/report.js';
import { formatReport } from '../src/format-report.js';
import type { RecordedRun } from '../src/recorded-run.js';
import { RECORDS, T0, cleanRun, seen } from './support/recorded-run-builder.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** A clean run with one stream (st_2) edited. */
function withDefect(edit: (run: Mutable<RecordedRun>) => void, base: RecordedRun = cleanRun()): RecordedRun {
  const run = structuredClone(base) as Mutable<RecordedRun>;
  edit(run);
  return run;
}

function only(run: RecordedRun): Partial<Record<CheckName, number>> {
  const report = check(run);
  return Object.fromEntries(Object.entries(report.counts).filter(([, count]) => count > 0));
}

const clientOf = (run: Mutable<RecordedRun>, n: number) => run.clients[n - 1] as Mutable<RecordedRun['clients'][number]>;

describe('check: a clean recorded run', () => {
  it('finds nothing, counts every frame and every stream as expected', () => {
    const report = check(cleanRun());
    expect(report.ok).toBe(true);
    expect(report.findings).toEqual([]);
    expect(report.exactlyOneTerminal).toBe(3);
    expect(report.outcomeAsExpected).toBe(3);
    expect(report.framesSent).toBe(3 * RECORDS.length);
    expect(report.framesLost).toBe(0);
    expect(report.notLoggedEvents).toEqual({ client: 0, backend: 0 });
  });
});

describe('check: each defect is found (each check can fail)', () => {
  it('a client without its terminal event', () => {
    const run = withDefect((r) => {
      clientOf(r, 2).events = clientOf(r, 2).events.slice(0, -1);
    });
    expect(only(run)).toEqual({ 'missing-terminal': 1 });
    expect(check(run).ok).toBe(false);
  });

  it('a stream the audit log still shows running', () => {
    const run = withDefect((r) => {
      r.audit = { ...r.audit, st_2: { ...r.audit['st_2']!, status: 'running' } };
    });
    expect(only(run)).toEqual({ 'missing-terminal': 1 });
  });

  it('a 200 that never gave a stream id or any event', () => {
    const run = withDefect((r) => {
      const client = clientOf(r, 2);
      client.streamId = null;
      client.events = [];
    });
    expect(only(run)).toEqual({ 'missing-terminal': 1 });
  });

  it('two terminal events at the backend', () => {
    const run = withDefect((r) => {
      const events = r.backend['st_2']!;
      const second = { type: 'stream.error', seq: 7, stream_id: 'st_2', status: 'failed', error: { category: 'internal' } };
      r.backend = { ...r.backend, st_2: [...events, ...seen([second], T0 + 900)] };
    });
    // The log never held that second terminal event: the backend also received an event it does not hold.
    expect(only(run)).toEqual({ 'duplicate-terminal': 1, 'backend-not-logged': 1 });
  });

  it('a gap in what a client saw', () => {
    const run = withDefect((r) => {
      clientOf(r, 2).events = clientOf(r, 2).events.filter((event) => event.seq !== 3);
    });
    expect(only(run)).toEqual({ 'client-gap': 1 });
  });

  it('a duplicate a client saw after a resume', () => {
    const run = withDefect((r) => {
      const events = clientOf(r, 2).events;
      clientOf(r, 2).events = [...events.slice(0, 4), events[3]!, ...events.slice(4)];
    });
    expect(only(run)).toEqual({ 'client-duplicate': 1 });
  });

  it('a client served events the log does not hold: the stream was ended in the log while its gateway went on', () => {
    // The normalizer ended st_2 as interrupted at seq 5; the client got the gateway's own block.stop at seq 5
    // and a stream.done at seq 6 (the events of the clean answer).
    const run = withDefect((r) => {
      const terminal = { type: 'stream.error', seq: 5, stream_id: 'st_2', status: 'interrupted', error: { category: 'transport_interrupted' } };
      const stored = [...r.stored['st_2']!.slice(0, 4), terminal];
      r.stored = { ...r.stored, st_2: stored };
      r.backend = { ...r.backend, st_2: seen(stored, T0 + 12) };
      r.audit = { ...r.audit, st_2: { ...r.audit['st_2']!, status: 'interrupted', eventSeqs: [1, 2, 3, 4, 5] } };
    });
    const report = check(run);
    expect(report.findings.filter((finding) => finding.check === 'client-not-logged')).toEqual([
      {
        key: 'sc_2',
        streamId: 'st_2',
        check: 'client-not-logged',
        detail: '2 event(s) at the client that the log does not hold: seq 5 stored with other content, seq 6 not stored',
      },
    ]);
    expect(report.counts['backend-not-logged']).toBe(0);
    expect(report.notLoggedEvents).toEqual({ client: 2, backend: 0 });
  });

  it('a client event whose content differs from the stored event of its seq', () => {
    const run = withDefect((r) => {
      const altered = { ...r.stored['st_2']![2]!, delta: { kind: 'text', text: 'Hxl' } };
      clientOf(r, 2).events = clientOf(r, 2).events.map((event) => (event.seq === 3 ? seen([altered], event.at)[0]! : event));
    });
    expect(only(run)).toEqual({ 'client-not-logged': 1 });
    expect(check(run).findings[0]!.detail).toContain('seq 3 stored with other content');
  });

  it('a backend event whose content differs from the stored event of its seq', () => {
    const run = withDefect((r) => {
      const altered = { ...r.stored['st_2']![3]!, stream_id: 'st_3' };
      r.backend = { ...r.backend, st_2: r.backend['st_2']!.map((event) => (event.seq === 4 ? seen([altered], event.at)[0]! : event)) };
    });
    expect(only(run)).toEqual({ 'backend-not-logged': 1 });
    expect(check(run).findings[0]!.detail).toBe('1 event(s) at the backend that the log does not hold: seq 4 stored with other content');
  });

  it('a client event that matches one of two copies stored at its seq is logged (the copy is the stored duplicate)', () => {
    const run = withDefect((r) => {
      const other = { ...r.stored['st_2']![2]!, delta: { kind: 'text', text: 'Hxl' } };
      r.stored = { ...r.stored, st_2: [...r.stored['st_2']!, other] };
    });
    expect(only(run)).toEqual({ 'stored-duplicate': 1 });
  });

  it('a gap and a duplicate at the backend', () => {
    expect(only(withDefect((r) => (r.backend = { ...r.backend, st_2: r.backend['st_2']!.filter((e) => e.seq !== 4) })))).toEqual({ 'backend-gap': 1 });
    expect(only(withDefect((r) => (r.backend = { ...r.backend, st_2: [...r.backend['st_2']!.slice(0, 2), r.backend['st_2']![1]!, ...r.backend['st_2']!.slice(2)] })))).toEqual({
      'backend-duplicate': 1,
    });
  });

  it('a hole and a duplicate in what JetStream stored', () => {
    const hole = withDefect((r) => (r.stored = { ...r.stored, st_2: r.stored['st_2']!.filter((e) => e.seq !== 4) }));
    // The hole also loses a delta, so the stored outcome no longer matches the transcript's text, and the
    // client and the backend received that delta, which the log does not hold.
    expect(only(hole)).toEqual({ 'stored-gap': 1, 'wrong-outcome': 1, 'client-not-logged': 1, 'backend-not-logged': 1 });
    const duplicate = withDefect((r) => (r.stored = { ...r.stored, st_2: [...r.stored['st_2']!, r.stored['st_2']![2]!] }));
    expect(only(duplicate)).toEqual({ 'stored-duplicate': 1 });
  });

  it('an outcome other than the transcript expects', () => {
    const run = withDefect((r) => {
      const events = r.stored['st_2']!.slice(0, 5);
      const stored = [...events, { type: 'stream.error', seq: 6, stream_id: 'st_2', status: 'interrupted', error: { category: 'transport_interrupted' } }];
      r.stored = { ...r.stored, st_2: stored };
      clientOf(r, 2).events = seen(stored);
      r.backend = { ...r.backend, st_2: seen(stored, T0 + 12) };
    });
    const report = check(run);
    expect(only(run)).toEqual({ 'wrong-outcome': 1 });
    expect(report.findings[0]!.detail).toContain('ended interrupted, expected completed');
  });

  it('an interruption is accepted only when the stream gateway died while it ran', () => {
    const interrupted = (r: Mutable<RecordedRun>): void => {
      const events = r.stored['st_2']!.slice(0, 4);
      const terminal = { type: 'stream.error', seq: 5, stream_id: 'st_2', status: 'interrupted', error: { category: 'transport_interrupted' } };
      r.stored = { ...r.stored, st_2: [...events, terminal] };
      r.backend = { ...r.backend, st_2: r.backend['st_2']!.slice(0, 4).concat(seen([terminal], T0 + 300)) };
      clientOf(r, 2).events = clientOf(r, 2).events.slice(0, 4).concat(seen([terminal], T0 + 300));
      r.audit = { ...r.audit, st_2: { ...r.audit['st_2']!, status: 'interrupted', eventSeqs: [1, 2, 3, 4, 5] } };
    };
    const kill = { kind: 'kill-gateway' as const, target: 'gw-1', startedAt: T0 + 50, endedAt: T0 + 120, detail: '' };
    expect(only(withDefect(interrupted))).toEqual({ 'wrong-outcome': 1 });
    const explained = check(withDefect(interrupted, cleanRun(3, [kill])));
    expect(explained.ok).toBe(true);
    expect(explained.explainedInterruptions).toBe(1);
    const otherGateway = check(withDefect(interrupted, cleanRun(3, [{ ...kill, target: 'gw-2' }])));
    expect(otherGateway.counts['wrong-outcome']).toBe(1);
  });

  it('a frame the upstream sent that the stored raw trace lacks', () => {
    const run = withDefect((r) => {
      const audit = r.audit['st_2']!;
      r.audit = { ...r.audit, st_2: { ...audit, raw: audit.raw.filter((record) => record.text !== RECORDS[2]) } };
    });
    expect(only(run)).toEqual({ 'lost-frames': 1 });
    expect(check(run).framesLost).toBe(1);
  });

  it('trailing frames a dead gateway never read are not lost, a hole before a stored frame is', () => {
    const kill = { kind: 'replace-gateway' as const, target: 'gw-1', startedAt: T0 + 100, endedAt: T0 + 150, detail: '' };
    const truncate = (keep: (text: string | undefined) => boolean) => (r: Mutable<RecordedRun>) => {
      const audit = r.audit['st_2']!;
      r.audit = { ...r.audit, st_2: { ...audit, raw: audit.raw.filter((record) => record.kind !== 'attempt.end' && keep(record.text)) } };
    };
    const tail = new Set(RECORDS.slice(4));
    expect(check(withDefect(truncate((text) => !tail.has(text ?? '')), cleanRun(3, [kill]))).framesLost).toBe(0);
    expect(check(withDefect(truncate((text) => !tail.has(text ?? '')))).framesLost).toBe(2);
    expect(check(withDefect(truncate((text) => text !== RECORDS[1]), cleanRun(3, [kill]))).framesLost).toBe(1);
  });

  it('events missing from the audit log, and a stream it does not know', () => {
    const missing = withDefect((r) => (r.audit = { ...r.audit, st_2: { ...r.audit['st_2']!, eventSeqs: [1, 2, 3] } }));
    expect(only(missing)).toEqual({ 'audit-missing-events': 1 });
    const unknown = withDefect((r) => {
      const { st_2: _dropped, ...rest } = r.audit;
      r.audit = rest;
    });
    expect(only(unknown)).toEqual({ 'audit-missing-events': 1 });
  });

  it('a stream failing /verify', () => {
    const run = withDefect((r) => (r.audit = { ...r.audit, st_2: { ...r.audit['st_2']!, verifyOk: false, verifyDetail: 'chain broken at seq 3' } }));
    expect(only(run)).toEqual({ 'audit-verify-failed': 1 });
  });

  it('another stream slowed down while a client stopped reading', () => {
    const window = { kind: 'slow-reader' as const, target: 'sc_1', startedAt: T0 + 50, endedAt: T0 + 30_050, detail: '' };
    const slowed = withDefect(
      (r) => {
        clientOf(r, 1).slowReader = true;
        const events = clientOf(r, 2).events;
        clientOf(r, 2).events = events.map((event, n) => (n >= 3 ? { ...event, at: event.at + 4_000 } : event));
        clientOf(r, 2).endedAt += 4_000;
      },
      cleanRun(3, [window]),
    );
    expect(only(slowed)).toEqual({ 'slowed-by-slow-reader': 1 });
    const notSlowed = withDefect((r) => (clientOf(r, 1).slowReader = true), cleanRun(3, [window]));
    expect(check(notSlowed).ok).toBe(true);
  });

  it("a stream's own retry wait (backoff, Retry-After) is not a stall: only the rest of a gap counts", () => {
    const window = { kind: 'slow-reader' as const, target: 'sc_1', startedAt: T0 + 50, endedAt: T0 + 30_050, detail: '' };
    // Client 2 waits 4 s for its fourth event; its gateway spent all but 10 ms of that waiting to retry: the
    // first attempt (a 429) ended at T0 + 20, the second began at T0 + 4_060.
    const delayed = (r: Mutable<RecordedRun>) => {
      clientOf(r, 1).slowReader = true;
      const events = clientOf(r, 2).events;
      clientOf(r, 2).events = events.map((event, n) => (n >= 3 ? { ...event, at: event.at + 4_000 } : event));
      clientOf(r, 2).endedAt += 4_000;
    };
    const retried = withDefect((r) => {
      delayed(r);
      const served = r.served.filter((body) => body.scenario !== 'sc_2');
      const second = r.served.find((body) => body.scenario === 'sc_2')!;
      const refused = { ...second, requestId: 'req_2a', status: 429, startedAt: T0 + 5, endedAt: T0 + 20, outcome: 'ended', body: '' };
      r.served = [...served, refused, { ...second, startedAt: T0 + 4_060, endedAt: T0 + 4_150 }];
    }, cleanRun(3, [window]));
    const report = check(retried);
    expect(report.findings).toStrictEqual([]);
    expect(report.stalls.streams).toBe(0);
    // The same gap without the retry is a stall, charged to the slow reader.
    const stalled = check(withDefect(delayed, cleanRun(3, [window])));
    expect(stalled.findings.map((finding) => finding.check)).toStrictEqual(['slowed-by-slow-reader']);
  });

  it("a stall while an overload burst's streams still run is the burst's, not the slow reader's", () => {
    const window = { kind: 'slow-reader' as const, target: 'sc_1', startedAt: T0 + 50, endedAt: T0 + 30_050, detail: '' };
    // The burst's record ends when its last stream started (T0 + 10); that stream runs until T0 + 6_000.
    const burst = { kind: 'overload' as const, target: 'gateways', startedAt: T0, endedAt: T0 + 10, detail: '' };
    // Client 2 waits 4 s for its fourth event, from `from` on.
    const stalledAt = (from: number) => (r: Mutable<RecordedRun>) => {
      clientOf(r, 1).slowReader = true;
      clientOf(r, 3).burst = true;
      clientOf(r, 3).endedAt = T0 + 6_000;
      const events = clientOf(r, 2).events;
      clientOf(r, 2).events = events.map((event, n) => ({ ...event, at: n < 2 ? event.at : n === 2 ? T0 + from : T0 + from + 4_000 + n * 20 }));
      clientOf(r, 2).endedAt = T0 + from + 4_200;
    };
    const duringBurst = check(withDefect(stalledAt(100), cleanRun(3, [burst, window])));
    expect(duringBurst.findings).toStrictEqual([]);
    expect(duringBurst.stalls.streams).toBe(0);
    // The same stall after the burst's last stream ended is the slow reader's, and says when it began.
    const afterBurst = check(withDefect(stalledAt(7_000), cleanRun(3, [burst, window])));
    expect(afterBurst.findings).toStrictEqual([{ key: 'sc_2', streamId: 'st_2', check: 'slowed-by-slow-reader', detail: '4060 ms without an event, from t=7.0 s' }]);
  });
});

describe('check: figures', () => {
  it('counts refusals by status and recovery per fault kind', () => {
    const kill = { kind: 'kill-normalizer' as const, target: 'normalizer-1', startedAt: T0 + 20, endedAt: T0 + 60, detail: '' };
    const run = withDefect((r) => {
      clientOf(r, 3).requests = [{ kind: 'post', gateway: 'http://gw-1', at: T0, status: 503, error: 'draining', events: 0 }, ...clientOf(r, 3).requests];
    }, cleanRun(3, [kill]));
    const report = check(run);
    expect(report.refusals).toEqual({ '503': 1 });
    const row = report.byFault.find((r) => r.kind === 'kill-normalizer')!;
    expect(row).toMatchObject({ runs: 1, streamsHit: 3, lostFrames: 0, missingTerminals: 0 });
    // Events every 20 ms from T0 + 10: the first at or after T0 + 60 is T0 + 70.
    expect(row.recoveryP50Ms).toBe(10);
    expect(report.byFault.find((r) => r.kind === 'none')).toMatchObject({ streamsHit: 0 });
    expect(report.byFault.find((r) => r.kind === 'all')).toMatchObject({ streamsHit: 3 });
  });

  it("counts a stream with events the log does not hold in its fault's not-logged column", () => {
    const kill = { kind: 'kill-gateway' as const, target: 'gw-1', startedAt: T0 + 20, endedAt: T0 + 60, detail: '' };
    const run = withDefect((r) => {
      const altered = { ...r.stored['st_2']![2]!, delta: { kind: 'text', text: 'Hxl' } };
      clientOf(r, 2).events = clientOf(r, 2).events.map((event) => (event.seq === 3 ? seen([altered], event.at)[0]! : event));
      r.backend = { ...r.backend, st_2: r.backend['st_2']!.map((event) => (event.seq === 3 ? seen([altered], event.at)[0]! : event)) };
    }, cleanRun(3, [kill]));
    const report = check(run);
    const rows = Object.fromEntries(report.byFault.map((row) => [row.kind, row]));
    expect(rows['kill-gateway']).toMatchObject({ notLogged: 1, gaps: 0, duplicates: 0 });
    expect(rows['all']).toMatchObject({ notLogged: 1 });
    expect(report.notLoggedEvents).toEqual({ client: 1, backend: 1 });
    expect(formatReport(report)).toContain('| kill-gateway | 1 | 3 | 0 | 0 | 0 | 0 | 0 | 1 |');
  });

  it('charges a defective stream to the first fault it was open during, once', () => {
    const first = { kind: 'kill-normalizer' as const, target: 'normalizer-1', startedAt: T0 + 20, endedAt: T0 + 60, detail: '' };
    const second = { kind: 'kill-audit-log' as const, target: 'audit-log', startedAt: T0 + 80, endedAt: T0 + 120, detail: '' };
    const run = withDefect((r) => {
      clientOf(r, 2).events = clientOf(r, 2).events.slice(0, -1);
      r.backend = { ...r.backend, st_2: r.backend['st_2']!.slice(0, -1) };
    }, cleanRun(3, [first, second]));
    const rows = Object.fromEntries(check(run).byFault.map((row) => [row.kind, row]));
    expect(rows['kill-normalizer']).toMatchObject({ streamsHit: 3, missingTerminals: 1 });
    expect(rows['kill-audit-log']).toMatchObject({ streamsHit: 3, missingTerminals: 0 });
    expect(rows['all']).toMatchObject({ missingTerminals: 1 });
  });
});
