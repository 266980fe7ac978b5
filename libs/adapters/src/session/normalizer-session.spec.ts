import fc from 'fast-check';
import {
  ATTEMPT_END_REASONS,
  checkInvariants,
  type AttemptEndReason,
  type ContractEvent,
  type ProviderName,
  type TraceRecord,
} from '@llm-stream/contract';
import { loadTranscripts } from '../../test/conformance-harness.js';
import { AnthropicAdapter } from '../anthropic/anthropic-adapter.js';
import {
  blockStop,
  messageDelta,
  messageStart,
  messageStop,
  ping,
  sse,
  streamError,
  textDelta,
  textStart,
  toolStart,
} from '../anthropic/__fixtures__/anthropic-frames.js';
import { parseSseRecord } from '../sse/sse-record.js';
import { NormalizerSession, type UnknownEventCounter } from './normalizer-session.js';
import { runTranscript } from './run-transcript.js';
import { TraceRecorder, type UnstampedRecord } from './trace-recorder.js';

// --- trace building -------------------------------------------------------------------------------------

/** Records stamped raw_seq 1, 2, ... and ts 1010, 1020, ... (the gateway's recorder). */
function stamp(records: readonly UnstampedRecord[]): TraceRecord[] {
  let now = 1000;
  const recorder = new TraceRecorder(() => (now += 10));
  return records.map((record) => recorder.stamp(record));
}

const open = (maxAttempts = 1): UnstampedRecord => ({
  kind: 'stream.open',
  stream_id: 'st_session',
  tenant: 'acme',
  provider: 'anthropic',
  model: 'claude-sonnet-4-5',
  gateway_id: 'gw-1',
  max_attempts: maxAttempts,
});
const start = (attempt: number): UnstampedRecord => ({ kind: 'attempt.start', attempt });
const ok = (attempt: number): UnstampedRecord => ({ kind: 'upstream.response', attempt, status: 200, content_type: 'text/event-stream' });
const status = (attempt: number, code: number, type: string, message: string): UnstampedRecord => ({
  kind: 'upstream.response',
  attempt,
  status: code,
  content_type: 'application/json',
  body: JSON.stringify({ type: 'error', error: { type, message }, request_id: 'req_011CSessionSessionSess' }),
  ...(code === 429 && { retry_after_ms: 2000 }),
});
const frames = (attempt: number, ...texts: string[]): UnstampedRecord[] => texts.map((text) => ({ kind: 'frame', attempt, text }));
const end = (attempt: number, reason: AttemptEndReason = 'eof', detail?: string): UnstampedRecord => ({
  kind: 'attempt.end',
  attempt,
  reason,
  ...(detail !== undefined && { detail }),
});
const cancel = (reason: 'client_request' | 'client_disconnected' = 'client_request'): UnstampedRecord => ({
  kind: 'client.cancel',
  reason,
});
const lost: UnstampedRecord = { kind: 'gateway.lost', gateway_id: 'gw-1' };
const heartbeat: UnstampedRecord = { kind: 'heartbeat' };

/** A whole successful attempt: one text block "Hello", end_turn. */
const goodAttempt = (attempt: number): UnstampedRecord[] => [
  start(attempt),
  ok(attempt),
  ...frames(attempt, messageStart(), textStart(0), ping(), textDelta(0, 'Hello'), blockStop(0), messageDelta('end_turn'), messageStop()),
  end(attempt),
];

class CountingCounter implements UnknownEventCounter {
  readonly seen: string[] = [];
  unknown(provider: ProviderName, eventType: string): void {
    this.seen.push(`${provider}:${eventType}`);
  }
}

function newSession(unknownEvents?: UnknownEventCounter): NormalizerSession {
  return new NormalizerSession({
    createAdapter: () => new AnthropicAdapter(),
    ...(unknownEvents !== undefined && { unknownEvents }),
  });
}

function run(
  records: readonly TraceRecord[],
  unknownEvents?: UnknownEventCounter,
): { session: NormalizerSession; events: ContractEvent[] } {
  const session = newSession(unknownEvents);
  const events = records.flatMap((record) => session.accept(record));
  return { session, events };
}

/** Event types with block indexes: `block.start#0`, and the error category of a stream.error. */
function outline(events: readonly ContractEvent[]): string[] {
  return events.map((event) => {
    switch (event.type) {
      case 'block.start':
      case 'block.delta':
      case 'block.stop':
        return `${event.type}#${String(event.block.index)}`;
      case 'stream.error':
        return `stream.error:${event.status}:${event.error.category}`;
      case 'stream.done':
        return `stream.done:${event.stop_reason}`;
      case 'stream.warning':
        return `stream.warning:${event.warning.provider_event_type ?? event.warning.code}`;
      case 'stream.start':
      case 'stream.heartbeat':
        return event.type;
    }
  });
}

const HELLO = ['stream.start', 'block.start#0', 'block.delta#0', 'block.stop#0', 'stream.done:end_turn'];

// --- specs ----------------------------------------------------------------------------------------------

describe('NormalizerSession record handling', () => {
  it('turns a one-attempt trace into the stream, with the getters following it', () => {
    const records = stamp([open(), ...goodAttempt(1)]);
    const session = newSession();
    expect(session.terminal).toBe(false);
    expect(session.lastSeq).toBe(0);
    const events = records.flatMap((record) => session.accept(record));
    expect(outline(events)).toStrictEqual(HELLO);
    expect(checkInvariants(events)).toStrictEqual([]);
    expect(session.terminal).toBe(true);
    expect(session.lastSeq).toBe(5);
    expect(session.lastRawSeq).toBe(records.length);
    expect(session.ignoredRecords).toBe(0);
  });

  it('ignores duplicates by raw_seq (a redelivered record or an older one), counting them', () => {
    const records = stamp([open(), ...goodAttempt(1)]);
    const [first, second, third, fourth] = records;
    if (!first || !second || !third || !fourth) throw new Error('short trace');
    const session = newSession();
    const events = [first, first, second, third, second, fourth, third, ...records.slice(4)].flatMap((record) => session.accept(record));
    expect(events).toStrictEqual(run(records).events);
    expect(session.ignoredRecords).toBe(3);
  });

  it('ignores and counts records before stream.open', () => {
    const records = stamp([...frames(1, messageStart(), textStart(0)), heartbeat, start(1), open(), ...goodAttempt(1)]);
    const { session, events } = run(records);
    expect(outline(events)).toStrictEqual(HELLO);
    expect(session.ignoredRecords).toBe(4);
  });

  it('ignores a second stream.open', () => {
    const records = stamp([open(), open(3), ...goodAttempt(1)]);
    const { session, events } = run(records);
    expect(outline(events)).toStrictEqual(HELLO);
    expect(session.ignoredRecords).toBe(1);
  });

  it('ignores and counts responses and frames outside an attempt', () => {
    const records = stamp([
      open(2),
      ok(1),
      ...frames(1, messageStart()),
      start(1),
      status(1, 429, 'rate_limit_error', 'Too many requests'),
      end(1),
      ...frames(1, ping()),
      ...goodAttempt(2),
    ]);
    const { session, events } = run(records);
    expect(outline(events)).toStrictEqual(HELLO);
    expect(session.ignoredRecords).toBe(3);
  });

  describe('records of another attempt (a late record of an aborted attempt)', () => {
    const firstAttempt = [
      start(1),
      ok(1),
      ...frames(1, messageStart(), textStart(0), streamError('overloaded_error', 'Overloaded')),
      end(1, 'cancelled'),
    ];
    const secondAttempt = (late: UnstampedRecord): UnstampedRecord[] => [
      start(2),
      ok(2),
      ...frames(2, messageStart()),
      late,
      ...frames(2, textStart(0), textDelta(0, 'Hello'), blockStop(0), messageDelta('end_turn'), messageStop()),
      end(2),
    ];

    it.each([
      ['a frame', frames(1, textDelta(0, 'stale'))[0]!],
      ['an attempt.end', end(1, 'transport_error')],
      ['an upstream.response', status(1, 500, 'api_error', 'Internal server error')],
    ])('ignores and counts %s of the earlier attempt during the next one', (_what, late) => {
      const { session, events } = run(stamp([open(2), ...firstAttempt, ...secondAttempt(late)]));
      expect(outline(events)).toStrictEqual(HELLO);
      expect(session.ignoredRecords).toBe(1);
    });
  });

  it('emits nothing for records after the terminal event', () => {
    const records = stamp([open(), ...goodAttempt(1), heartbeat, cancel(), lost, ...goodAttempt(2)]);
    const { session, events } = run(records);
    expect(outline(events)).toStrictEqual(HELLO);
    expect(session.lastRawSeq).toBe(records.length);
  });

  it('maps heartbeat records to stream.heartbeat, which is not progress', () => {
    const records = stamp([open(), heartbeat, start(1), ok(1), ...frames(1, messageStart(), textStart(0), textDelta(0, 'a')), heartbeat]);
    const { session, events } = run(records);
    expect(outline(events)).toStrictEqual(['stream.start', 'stream.heartbeat', 'block.start#0', 'block.delta#0', 'stream.heartbeat']);
    expect(session.lastProgressTs).toBe(records[6]?.ts);
  });

  it('uses a frame the caller already parsed instead of parsing the record text again', () => {
    const [openRecord, startRecord, frameRecord] = stamp([open(), start(1), ...frames(1, 'not parsed')]);
    if (!openRecord || !startRecord || !frameRecord) throw new Error('short trace');
    const session = newSession();
    session.accept(openRecord);
    session.accept(startRecord);
    expect(outline(session.accept(frameRecord, parseSseRecord(streamError('overloaded_error', 'Overloaded'))))).toStrictEqual([
      'stream.error:failed:upstream_overloaded',
    ]);
  });
});

describe('NormalizerSession attempt endings without a terminal signal', () => {
  const expected: Readonly<Record<AttemptEndReason, readonly [string, string, boolean | null]>> = {
    eof: ['interrupted', 'transport_interrupted', null],
    connect_error: ['interrupted', 'transport_interrupted', null],
    transport_error: ['interrupted', 'transport_interrupted', null],
    idle_timeout: ['interrupted', 'timeout', null],
    progress_timeout: ['interrupted', 'timeout', null],
    frame_too_large: ['failed', 'protocol_error', false],
    cancelled: ['interrupted', 'client_cancelled', null],
    aborted: ['interrupted', 'transport_interrupted', null],
  };

  it.each(ATTEMPT_END_REASONS.map((reason) => [reason, ...expected[reason]] as const))(
    '%s -> %s %s (retryable %s), after the text received so far',
    (reason, terminalStatus, category, retryable) => {
      const records = stamp([
        open(),
        start(1),
        ok(1),
        ...frames(1, messageStart(), textStart(0), textDelta(0, 'Hel')),
        end(1, reason, 'ECONNRESET'),
      ]);
      const { events } = run(records);
      expect(checkInvariants(events)).toStrictEqual([]);
      expect(outline(events)).toStrictEqual([
        'stream.start',
        'block.start#0',
        'block.delta#0',
        `stream.error:${terminalStatus}:${category}`,
      ]);
      expect(events.at(-1)).toMatchObject({
        ts: records.at(-1)?.ts,
        error: { retryable, provider_code: null, message: expect.stringMatching(/ \(ECONNRESET\)$/) as unknown },
      });
    },
  );

  it('flushes held block starts before the interruption when no retry is possible', () => {
    const records = stamp([open(), start(1), ok(1), ...frames(1, messageStart(), toolStart(0)), end(1, 'eof')]);
    expect(outline(run(records).events)).toStrictEqual(['stream.start', 'block.start#0', 'stream.error:interrupted:transport_interrupted']);
  });
});

describe('NormalizerSession retries', () => {
  it('discards an attempt that got HTTP 429 and follows with the next one as if it were the first', () => {
    const records = stamp([open(2), start(1), status(1, 429, 'rate_limit_error', 'Too many requests'), end(1, 'eof'), ...goodAttempt(2)]);
    const { events } = run(records);
    expect(outline(events)).toStrictEqual(HELLO);
    expect(checkInvariants(events)).toStrictEqual([]);
  });

  it('discards an attempt whose overloaded_error came after a content_block_start without delta: block 0 again', () => {
    const failed = [
      start(1),
      ok(1),
      ...frames(1, messageStart(), textStart(0), ping(), streamError('overloaded_error', 'Overloaded')),
      end(1, 'eof'),
    ];
    const { events } = run(stamp([open(2), ...failed, ...goodAttempt(2)]));
    expect(outline(events)).toStrictEqual(HELLO);
    expect(events[1]).toMatchObject({ type: 'block.start', block: { id: 'st_session.b0', index: 0 } });
    expect(events.filter((event) => event.type === 'stream.start')).toHaveLength(1);
  });

  it.each(['connect_error', 'transport_error', 'eof'] as const)('retries an attempt that ended with %s before any frame', (reason) => {
    const { events } = run(stamp([open(2), start(1), end(1, reason), ...goodAttempt(2)]));
    expect(outline(events)).toStrictEqual(HELLO);
  });

  it('retries an attempt interrupted after a block start without delta, discarding the block', () => {
    const { events } = run(
      stamp([open(2), start(1), ok(1), ...frames(1, messageStart(), toolStart(0)), end(1, 'transport_error'), ...goodAttempt(2)]),
    );
    expect(outline(events)).toStrictEqual(HELLO);
  });

  it('never retries a failure after a visible delta: the error goes out at once', () => {
    const records = stamp([
      open(3),
      start(1),
      ok(1),
      ...frames(1, messageStart(), textStart(0), textDelta(0, 'Hel'), streamError('overloaded_error', 'Overloaded')),
      end(1),
    ]);
    const session = newSession();
    const events = records.slice(0, -1).flatMap((record) => session.accept(record));
    expect(outline(events)).toStrictEqual(['stream.start', 'block.start#0', 'block.delta#0', 'stream.error:failed:upstream_overloaded']);
    expect(session.retryableFailurePending).toBe(false);
    expect(session.accept(records.at(-1)!)).toStrictEqual([]);
    expect(session.awaitingRetry).toBe(false);
  });

  it('never retries an interruption after a visible delta', () => {
    const records = stamp([
      open(3),
      start(1),
      ok(1),
      ...frames(1, messageStart(), textStart(0), textDelta(0, 'Hel')),
      end(1, 'transport_error'),
      ...goodAttempt(2),
    ]);
    const { session, events } = run(records);
    expect(outline(events)).toStrictEqual([
      'stream.start',
      'block.start#0',
      'block.delta#0',
      'stream.error:interrupted:transport_interrupted',
    ]);
    expect(session.awaitingRetry).toBe(false);
  });

  it('emits the last failure at once when the attempts are exhausted', () => {
    const records = stamp([
      open(2),
      start(1),
      status(1, 429, 'rate_limit_error', 'Too many requests'),
      end(1),
      start(2),
      status(2, 529, 'overloaded_error', 'Overloaded'),
      end(2),
    ]);
    const session = newSession();
    const perRecord = records.map((record) => outline(session.accept(record)));
    expect(perRecord.at(-2)).toStrictEqual(['stream.error:failed:upstream_overloaded']);
    expect(perRecord.flat()).toStrictEqual(['stream.start', 'stream.error:failed:upstream_overloaded']);
    expect(session.awaitingRetry).toBe(false);
  });

  it('flushes the held block starts of the last attempt before its failure', () => {
    const records = stamp([
      open(2),
      start(1),
      end(1, 'connect_error'),
      start(2),
      ok(2),
      ...frames(2, messageStart(), textStart(0), streamError('api_error', 'Internal server error')),
    ]);
    expect(outline(run(records).events)).toStrictEqual(['stream.start', 'block.start#0', 'stream.error:failed:upstream_error']);
  });

  it('emits a non-retryable failure at once, whatever the budget', () => {
    const records = stamp([open(3), start(1), status(1, 400, 'invalid_request_error', 'max_tokens: Field required')]);
    const { session, events } = run(records);
    expect(outline(events)).toStrictEqual(['stream.start', 'stream.error:failed:invalid_request']);
    expect(events.at(-1)).toMatchObject({ error: { retryable: false, provider_code: 'invalid_request_error', http_status: 400 } });
    expect(session.retryableFailurePending).toBe(false);
  });

  it.each(['idle_timeout', 'progress_timeout', 'frame_too_large'] as const)('does not retry %s', (reason) => {
    const { events } = run(stamp([open(3), start(1), end(1, reason), ...goodAttempt(2)]));
    expect(events).toHaveLength(2);
    expect(events.at(-1)?.type).toBe('stream.error');
  });
});

describe('NormalizerSession state for the gateway', () => {
  it('reports a retryable failure as pending until its attempt ends, then awaits the retry until attempt.start', () => {
    const records = stamp([
      open(2),
      start(1),
      ok(1),
      ...frames(1, messageStart(), textStart(0), streamError('overloaded_error', 'Overloaded')),
      end(1, 'cancelled'),
      start(2),
    ]);
    const session = newSession();
    const states = records.map((record) => {
      const events = session.accept(record);
      return [record.kind, events.length, session.retryableFailurePending, session.awaitingRetry] as const;
    });
    expect(states).toStrictEqual([
      ['stream.open', 1, false, false],
      ['attempt.start', 0, false, false],
      ['upstream.response', 0, false, false],
      ['frame', 0, false, false],
      ['frame', 0, false, false],
      ['frame', 0, true, false],
      ['attempt.end', 0, false, true],
      ['attempt.start', 0, false, false],
    ]);
  });

  it('sees visible content only once a delta went out, and keeps it across the stream', () => {
    const records = stamp([
      open(2),
      start(1),
      ok(1),
      ...frames(1, messageStart(), textStart(0), ping()),
      ...frames(1, textDelta(0, 'a'), blockStop(0)),
    ]);
    const session = newSession();
    const seen = records.map((record) => (session.accept(record), session.visibleContentSeen));
    expect(seen).toStrictEqual([false, false, false, false, false, false, true, true]);
  });

  it('moves lastProgressTs on block and terminal inputs, never on pings, heartbeats, warnings or message-level events', () => {
    const records = stamp([
      open(),
      start(1),
      ok(1),
      ...frames(1, messageStart()),
      ...frames(1, textStart(0)),
      ...frames(1, ping(), sse({ type: 'content_block_flash', index: 0 })),
      heartbeat,
      ...frames(1, textDelta(0, 'a'), ping(), blockStop(0), messageDelta('end_turn'), ping()),
      ...frames(1, messageStop()),
    ]);
    const session = newSession();
    const progress = records.map((record) => (session.accept(record), session.lastProgressTs));
    const ts = (position: number): number | undefined => records[position]?.ts;
    expect(progress).toStrictEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      ts(4),
      ts(4),
      ts(4),
      ts(4),
      ts(8),
      ts(8),
      ts(10),
      ts(10),
      ts(10),
      ts(13),
    ]);
  });
});

describe('NormalizerSession cancellation and gateway loss', () => {
  it('flushes held block starts, then ends interrupted client_cancelled', () => {
    const records = stamp([open(2), start(1), ok(1), ...frames(1, messageStart(), textStart(0), toolStart(1)), cancel('client_request')]);
    const { events } = run(records);
    expect(outline(events)).toStrictEqual(['stream.start', 'block.start#0', 'block.start#1', 'stream.error:interrupted:client_cancelled']);
    expect(events.at(-1)).toMatchObject({ error: { retryable: null, provider_code: null, message: 'the client cancelled the stream' } });
    expect(checkInvariants(events)).toStrictEqual([]);
  });

  it('says when the client disconnected and did not come back', () => {
    const { events } = run(stamp([open(), start(1), cancel('client_disconnected')]));
    expect(events.at(-1)).toMatchObject({
      type: 'stream.error',
      status: 'interrupted',
      error: { category: 'client_cancelled', message: 'the client disconnected and did not come back within the grace period' },
    });
  });

  it('ends interrupted transport_interrupted when the gateway is lost, after held block starts', () => {
    const { events } = run(stamp([open(), start(1), ok(1), ...frames(1, messageStart(), textStart(0)), lost]));
    expect(outline(events)).toStrictEqual(['stream.start', 'block.start#0', 'stream.error:interrupted:transport_interrupted']);
    expect(events.at(-1)).toMatchObject({
      error: { retryable: null, message: 'the gateway holding the upstream connection stopped renewing its lease' },
    });
  });

  it.each([
    [undefined, 'the gateway holding the upstream connection shut down before the stream ended', null],
    ['drain_timeout', 'the gateway holding the upstream connection shut down before the stream ended', null],
    [
      'trace_backlog',
      'the gateway ended the stream: JetStream confirmed none of its raw trace records while more than the publisher bound waited in memory',
      null,
    ],
    ['not_opened', 'the gateway refused the stream before calling the provider (503 unavailable): JetStream did not confirm its opening in time', true],
  ] as const)('ends interrupted transport_interrupted on gateway.shutdown with reason %s', (reason, message, retryable) => {
    const shutdown: UnstampedRecord = { kind: 'gateway.shutdown', gateway_id: 'gw-1', ...(reason !== undefined && { reason }) };
    const { events } = run(stamp([open(), shutdown]));
    expect(outline(events)).toStrictEqual(['stream.start', 'stream.error:interrupted:transport_interrupted']);
    expect(events.at(-1)).toMatchObject({ error: { retryable, provider_code: null, message } });
    expect(checkInvariants(events)).toStrictEqual([]);
  });

  it.each([
    ['client.cancel', cancel()],
    ['gateway.lost', lost],
  ])('stops awaiting a retry after %s', (_what, ending) => {
    const records = stamp([open(3), start(1), status(1, 529, 'overloaded_error', 'Overloaded'), end(1), ending]);
    const { session, events } = run(records);
    expect(events.at(-1)?.type).toBe('stream.error');
    expect(session.terminal).toBe(true);
    expect(session.awaitingRetry).toBe(false);
  });

  it.each([
    ['client.cancel', cancel()],
    ['gateway.lost', lost],
  ])('has no retryable failure pending after %s', (_what, ending) => {
    const records = stamp([open(3), start(1), status(1, 529, 'overloaded_error', 'Overloaded'), ending]);
    const { session } = run(records);
    expect(session.terminal).toBe(true);
    expect(session.retryableFailurePending).toBe(false);
  });
});

describe('NormalizerSession unknown events', () => {
  it('warns once per type per stream but counts every occurrence, across attempts', () => {
    const flash = sse({ type: 'content_block_flash', index: 0 });
    const sparkle = sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_sparkle_delta' } });
    const serverTool = sse({
      type: 'content_block_start',
      index: 1,
      content_block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} },
    });
    const counter = new CountingCounter();
    const records = stamp([
      open(2),
      start(1),
      ok(1),
      ...frames(1, messageStart(), flash, textStart(0), flash, streamError('overloaded_error', 'Overloaded')),
      end(1),
      start(2),
      ok(2),
      ...frames(2, messageStart(), flash, textStart(0), sparkle, textDelta(0, 'Hello'), sparkle, blockStop(0), serverTool, blockStop(1)),
      ...frames(2, messageDelta('end_turn'), messageStop()),
      end(2),
    ]);
    const { events } = run(records, counter);
    expect(outline(events)).toStrictEqual([
      'stream.start',
      'stream.warning:content_block_flash',
      'stream.warning:content_block_delta.text_sparkle_delta',
      'block.start#0',
      'block.delta#0',
      'block.stop#0',
      'stream.warning:content_block.server_tool_use',
      'stream.done:end_turn',
    ]);
    expect(counter.seen).toStrictEqual([
      'anthropic:content_block_flash',
      'anthropic:content_block_flash',
      'anthropic:content_block_flash',
      'anthropic:content_block_delta.text_sparkle_delta',
      'anthropic:content_block_delta.text_sparkle_delta',
      'anthropic:content_block.server_tool_use',
    ]);
  });
});

describe('NormalizerSession determinism', () => {
  it('gives deep-equal events for the same records on a second session (a retried stream)', () => {
    const records = stamp([
      open(3),
      heartbeat,
      start(1),
      status(1, 429, 'rate_limit_error', 'Too many requests'),
      end(1),
      start(2),
      ok(2),
      ...frames(2, messageStart(), sse({ type: 'content_block_flash' }), textStart(0), streamError('overloaded_error', 'Overloaded')),
      end(2),
      ...goodAttempt(3),
    ]);
    const first = run(records).events;
    expect(outline(first)).toStrictEqual(['stream.start', 'stream.heartbeat', 'stream.warning:content_block_flash', ...HELLO.slice(1)]);
    expect(run(records).events).toStrictEqual(first);
  });

  it('replays every Anthropic transcript trace to the same events', () => {
    for (const transcript of loadTranscripts('anthropic')) {
      const live = runTranscript('anthropic', transcript.body, { createAdapter: () => new AnthropicAdapter(), clock: () => 7 });
      expect(run(live.records).events).toStrictEqual(live.events);
    }
  });
});

describe('NormalizerSession raw_seq order (a record the gateway republished at the end arrives late)', () => {
  const trace = (): TraceRecord[] => stamp([open(2), heartbeat, ...goodAttempt(1)]);
  /** Moves the record at `position` to the end of the stored order (a message lost on the way and sent again). */
  const republishedLast = (records: readonly TraceRecord[], position: number): TraceRecord[] => [
    ...records.slice(0, position),
    ...records.slice(position + 1),
    records[position]!,
  ];

  it('holds the records after a gap and releases them, in raw_seq order, with the record that fills it', () => {
    const records = trace();
    const lateFrame = 5; // textStart(0): without it, the delta after it would hit an unopened block
    const session = newSession();
    const perRecord = republishedLast(records, lateFrame).map((record) => {
      const events = outline(session.accept(record));
      return [record.raw_seq, events, session.lastRawSeq, session.heldRecords] as const;
    });
    expect(perRecord.slice(lateFrame)).toStrictEqual([
      ...records.slice(lateFrame + 1).map((record) => [record.raw_seq, [], lateFrame, record.raw_seq - lateFrame - 1] as const),
      [lateFrame + 1, HELLO.slice(1), records.length, 0],
    ]);
    expect(perRecord.flatMap(([, events]) => events)).toStrictEqual(outline(run(records).events));
    expect(session.ignoredRecords).toBe(0);
  });

  it('gives the same events for any stored order of the same records, duplicates included', () => {
    const records = stamp([
      open(3),
      start(1),
      status(1, 429, 'rate_limit_error', 'Too many requests'),
      end(1),
      heartbeat,
      start(2),
      ok(2),
      ...frames(2, messageStart(), textStart(0), ping(), textDelta(0, 'Hel'), textDelta(0, 'lo'), blockStop(0)),
      ...frames(2, toolStart(1), blockStop(1), messageDelta('end_turn'), messageStop()),
      end(2),
    ]);
    const expected = run(records).events;
    fc.assert(
      fc.property(fc.shuffledSubarray(records, { minLength: records.length }), fc.array(fc.nat(records.length - 1)), (order, repeats) => {
        const stored = [...order];
        for (const position of repeats) stored.splice(position, 0, records[position]!);
        const session = newSession();
        const events = stored.flatMap((record) => session.accept(record));
        expect(events).toStrictEqual(expected);
        expect(session.ignoredRecords).toBe(repeats.length);
        expect(session.heldRecords).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it('ends the stream where a gateway.lost (raw_seq 0, outside the gateway numbering) is stored, whatever is held; late records change nothing', () => {
    const records = stamp([open(), start(1), ok(1), ...frames(1, messageStart(), textStart(0), textDelta(0, 'Hel'), textDelta(0, 'lo'))]);
    const missing = records.length - 2; // the first text delta never arrives
    const session = newSession();
    const before = records.filter((_record, position) => position !== missing).flatMap((record) => session.accept(record));
    expect(outline(before)).toStrictEqual(['stream.start']);
    expect(session.heldRecords).toBe(1);
    const lostRecord: TraceRecord = { kind: 'gateway.lost', raw_seq: 0, ts: 5_000, gateway_id: 'gw-1' };
    // The gateway could still write any raw_seq after the last one processed: none of them can collide with 0.
    // The block start the adapter holds goes out before the error; the held delta after the gap never does.
    expect(outline(session.accept(lostRecord))).toStrictEqual(['block.start#0', 'stream.error:interrupted:transport_interrupted']);
    expect(session.accept(records[missing]!)).toStrictEqual([]);
    expect(session.accept({ ...records.at(-1)!, raw_seq: records.length + 1 })).toStrictEqual([]);
    expect(session.terminal).toBe(true);
  });

  it('forgets what it holds when its reader gives live order up: reading the stored order then gives what a replay gives', () => {
    const records = stamp([
      open(),
      start(1),
      ok(1),
      ...frames(1, messageStart(), textStart(0), ...['a', 'b', 'c', 'd', 'e', 'f'].map((text) => textDelta(0, text))),
    ]);
    const missing = 4; // messageStart, stored last
    const stored = [...records.filter((_record, position) => position !== missing), records[missing]!];
    const limited = (): NormalizerSession => new NormalizerSession({ createAdapter: () => new AnthropicAdapter(), maxHeldRecords: 3 });
    // Live, the records after the gap arrived in another order than stored: 6, 7 and 10 are held.
    const live = limited();
    const arrived = [...records.slice(0, missing), records[missing + 1]!, records[missing + 2]!, records[missing + 5]!].flatMap((record) => live.accept(record));
    expect(live.heldRecords).toBe(3);
    live.forgetHeldRecords();
    const fromStore = stored.flatMap((record) => live.accept(record));
    const replay = limited();
    const replayed = stored.flatMap((record) => replay.accept(record));
    // The gap is given up at the same record as a replay of the stored order (8, not 7 as the held set would say).
    expect([...arrived, ...fromStore]).toStrictEqual(replayed);
    expect(replayed.at(-1)).toMatchObject({ ts: records[missing + 4]?.ts });
  });

  it('gives a gap up after maxHeldRecords held records: the stream ends interrupted, the same way for every replica', () => {
    const records = stamp([
      open(),
      start(1),
      ok(1),
      ...frames(1, messageStart(), textStart(0), ...['a', 'b', 'c', 'd', 'e'].map((text) => textDelta(0, text))),
    ]);
    const missing = 4; // messageStart
    const stored = records.filter((_record, position) => position !== missing);
    const replay = (): { events: ContractEvent[]; session: NormalizerSession } => {
      const session = new NormalizerSession({ createAdapter: () => new AnthropicAdapter(), maxHeldRecords: 3 });
      return { session, events: stored.flatMap((record) => session.accept(record)) };
    };
    const { events, session } = replay();
    expect(outline(events)).toStrictEqual(['stream.start', 'stream.error:interrupted:transport_interrupted']);
    expect(events.at(-1)).toMatchObject({
      ts: records[missing + 4]?.ts,
      error: { message: 'raw trace record 5 never arrived while 3 later records waited for it' },
    });
    expect(session.terminal).toBe(true);
    expect(session.heldRecords).toBe(0);
    expect(session.accept(records[missing]!)).toStrictEqual([]);
    expect(replay().events).toStrictEqual(events);
  });
});
