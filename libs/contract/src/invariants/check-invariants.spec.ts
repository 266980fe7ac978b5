import {
  blockStart,
  blockStop,
  delta,
  done,
  failure,
  heartbeat,
  numbered,
  seedExample,
  start,
} from '../../test/event-builders.js';
import type { ContractEvent } from '../events/contract-event.js';
import { checkInvariants, type InvariantOptions, type InvariantViolation } from './check-invariants.js';
import { INVARIANT_RULES, INVARIANT_RULE_DESCRIPTIONS, type InvariantRule } from './invariant-rule.js';

const rulesOf = (violations: readonly InvariantViolation[]): InvariantRule[] => violations.map((v) => v.rule);

/** `events` with event `at` replaced (as plain JSON, so any shape can be written). */
function patch(events: readonly ContractEvent[], at: number, change: Record<string, unknown>): unknown[] {
  return events.map((event, i) => (i === at ? { ...event, ...change } : event));
}

const TEXT_STREAM = numbered([start(), blockStart(0), delta(0, 'Hi'), blockStop(0), done()]);

interface Breaking {
  readonly events: readonly unknown[];
  readonly options?: InvariantOptions;
  /** Position of the violation in the list. */
  readonly index: number;
}

// One hand-made list per rule, each breaking exactly that rule. Typed as a Record over InvariantRule, so a
// new rule does not compile until it has its case here.
const BREAKS: Readonly<Record<InvariantRule, Breaking>> = {
  'schema-valid': { events: patch(TEXT_STREAM, 2, { delta: { kind: 'text', text: 'Hi', extra: 1 } }), index: 2 },
  'first-event-is-start': { events: numbered([heartbeat(), start(), done()]), index: 0 },
  'single-stream-start': { events: numbered([start(), heartbeat(), start(), done()]), index: 2 },
  'seq-starts-at-one': { events: numbered([start(), blockStart(0), blockStop(0), done()], 2), index: 0 },
  // seq 1, 2, 2, 3: a repeat without a gap.
  'seq-strictly-increasing': { events: [...numbered([start(), heartbeat()]), ...numbered([heartbeat(), done()], 2)], index: 2 },
  'seq-contiguous': { events: numbered([start(), heartbeat(), blockStart(0), blockStop(0), done()]).filter((_, i) => i !== 1), index: 1 },
  'single-stream-id': { events: patch(TEXT_STREAM, 2, { stream_id: 'st_2' }), index: 2 },
  'delta-needs-open-block': { events: numbered([start(), delta(0, 'Hi'), done()]), index: 1 },
  'stop-needs-start': { events: numbered([start(), blockStop(0), done()]), index: 1 },
  'block-started-once': { events: numbered([start(), blockStart(0), blockStart(0), blockStop(0), done()]), index: 2 },
  'block-stopped-at-most-once': { events: numbered([start(), blockStart(0), blockStop(0), blockStop(0), done()]), index: 3 },
  'block-index-order': { events: numbered([start(), blockStart(1), blockStop(1), done()]), index: 1 },
  'block-id-unique': {
    events: numbered([start(), blockStart(0), blockStop(0), blockStart(1, 'text', { id: 'st_1.b0' }), blockStop(1, 'text', 'st_1.b0'), done()]),
    index: 3,
  },
  'block-ref-consistent': { events: numbered([start(), blockStart(0), delta(0, 'Hi', 'refusal'), blockStop(0), done()]), index: 2 },
  'tool-arguments-valid-json': {
    events: numbered([start(), blockStart(0, 'tool_call'), delta(0, '{"city":', 'tool_call'), blockStop(0, 'tool_call'), done()]),
    index: 3,
  },
  'done-with-open-block': { events: numbered([start(), blockStart(0), delta(0, 'Hi'), done()]), index: 3 },
  'nothing-after-terminal': { events: numbered([start(), done(), heartbeat()]), index: 2 },
  'single-terminal': { events: numbered([start(), done(), failure()]), index: 2 },
  'missing-terminal': { events: numbered([start(), blockStart(0), blockStop(0)]), index: 3 },
};

describe('checkInvariants: valid streams', () => {
  it('accepts the seed example and a plain text stream', () => {
    expect(checkInvariants(seedExample())).toEqual([]);
    expect(checkInvariants(TEXT_STREAM)).toEqual([]);
  });

  it('accepts a failed stream that leaves blocks open (no fake block.stop)', () => {
    expect(checkInvariants(numbered([start(), blockStart(0, 'tool_call'), delta(0, '{"a"', 'tool_call'), failure()]))).toEqual([]);
  });

  it('accepts empty and blank tool arguments (a zero-parameter call)', () => {
    expect(checkInvariants(numbered([start(), blockStart(0, 'tool_call'), blockStop(0, 'tool_call'), done()]))).toEqual([]);
    expect(checkInvariants(numbered([start(), blockStart(0, 'tool_call'), delta(0, ' ', 'tool_call'), blockStop(0, 'tool_call'), done()]))).toEqual([]);
  });

  it('accepts interleaved blocks (parallel tool calls) and heartbeats anywhere before the end', () => {
    const events = numbered([
      start(),
      heartbeat(),
      blockStart(0, 'tool_call'),
      blockStart(1, 'tool_call'),
      delta(1, '{}', 'tool_call'),
      delta(0, '{"a":1}', 'tool_call'),
      heartbeat(),
      blockStop(1, 'tool_call'),
      blockStop(0, 'tool_call'),
      done(),
    ]);
    expect(checkInvariants(events)).toEqual([]);
  });
});

describe('checkInvariants: one case per rule, breaking exactly that rule', () => {
  it.each(INVARIANT_RULES)('%s', (rule) => {
    const { events, options, index } = BREAKS[rule];
    const violations = checkInvariants(events, options);
    expect(rulesOf(violations)).toEqual([rule]);
    expect(violations[0]?.index).toBe(index);
    expect(violations[0]?.message).not.toBe('');
  });

  it('has a description for every rule', () => {
    for (const rule of INVARIANT_RULES) expect(INVARIANT_RULE_DESCRIPTIONS[rule]).toMatch(/\.$/);
  });
});

describe('checkInvariants: rule variants', () => {
  it('delta-needs-open-block: a delta after the block was stopped', () => {
    const events = numbered([start(), blockStart(0), blockStop(0), delta(0, 'late'), done()]);
    expect(checkInvariants(events)).toEqual([
      { rule: 'delta-needs-open-block', index: 3, seq: 4, message: 'block.delta for block 0, which was stopped at seq 3' },
    ]);
  });

  it('block-started-once: a start for a block that was already stopped', () => {
    expect(rulesOf(checkInvariants(numbered([start(), blockStart(0), blockStop(0), blockStart(0), done()])))).toEqual([
      'block-started-once',
    ]);
  });

  it('block-ref-consistent: a stop naming another id', () => {
    const events = numbered([start(), blockStart(0), blockStop(0, 'text', 'other'), done()]);
    expect(rulesOf(checkInvariants(events))).toEqual(['block-ref-consistent']);
  });

  it('tool-arguments-valid-json: arguments that are JSON but not an object', () => {
    for (const json of ['[1]', '"x"', '42', 'null']) {
      const events = numbered([start(), blockStart(0, 'tool_call'), delta(0, json, 'tool_call'), blockStop(0, 'tool_call'), done()]);
      expect(rulesOf(checkInvariants(events))).toEqual(['tool-arguments-valid-json']);
    }
  });

  it('seq-strictly-increasing: a seq that goes back', () => {
    // seq 1, 2, 3, 1, 4: the later events are not blamed for the one that went back.
    const events = [...numbered([start(), heartbeat(), heartbeat()]), ...numbered([heartbeat()]).map((e) => ({ ...e, seq: 1 })), ...numbered([done()], 4)];
    expect(rulesOf(checkInvariants(events))).toEqual(['seq-strictly-increasing']);
  });

  it('missing-terminal and an empty list', () => {
    expect(checkInvariants([])).toEqual([{ rule: 'missing-terminal', index: 0, message: 'the stream has no stream.done or stream.error' }]);
    expect(checkInvariants([], { partial: true })).toEqual([]);
  });

  it('nothing-after-terminal: a block event after stream.error is reported once, not as a block rule too', () => {
    const events = numbered([start(), blockStart(0), failure(), delta(0, 'late'), blockStop(0)]);
    expect(rulesOf(checkInvariants(events))).toEqual(['nothing-after-terminal', 'nothing-after-terminal']);
  });
});

describe('checkInvariants: options', () => {
  it('partial: a running stream is not missing its terminal, but every other rule still applies', () => {
    expect(checkInvariants(numbered([start(), blockStart(0)]), { partial: true })).toEqual([]);
    expect(rulesOf(checkInvariants(numbered([start(), delta(0, 'x')]), { partial: true }))).toEqual(['delta-needs-open-block']);
  });

  it('projection: seq and block indexes may skip, but must still increase', () => {
    const projected = numbered([start(), blockStart(0, 'reasoning'), blockStop(0, 'reasoning'), blockStart(1), blockStop(1), done()]).filter(
      (event) => !('block' in event) || event.block.kind !== 'reasoning',
    );
    expect(checkInvariants(projected, { projection: true })).toEqual([]);
    expect(rulesOf(checkInvariants(projected))).toEqual(['seq-contiguous', 'block-index-order']);
    const backwards = numbered([start(), blockStart(3), blockStop(3), blockStart(1), blockStop(1), done()]);
    expect(rulesOf(checkInvariants(backwards, { projection: true }))).toEqual(['block-index-order']);
    expect(rulesOf(checkInvariants(patch(projected, 2, { seq: 1 }), { projection: true }))).toEqual(['seq-strictly-increasing']);
  });
});

describe('checkInvariants: reporting', () => {
  it('reports every violation in list order without stopping at the first', () => {
    const events = [
      ...patch(numbered([heartbeat(), delta(0, 'x'), blockStop(1), blockStart(0), blockStart(0)]), 1, { stream_id: 'other' }),
    ];
    expect(rulesOf(checkInvariants(events))).toEqual([
      'first-event-is-start',
      'single-stream-id',
      'delta-needs-open-block',
      'stop-needs-start',
      'block-started-once',
      'missing-terminal',
    ]);
  });

  it('reads seq and type from an event that fails the schema, so one bad field is one violation', () => {
    const events = patch(TEXT_STREAM, 4, { stop_reason: 'finished' });
    expect(checkInvariants(events)).toEqual([
      { rule: 'schema-valid', index: 4, seq: 5, message: expect.stringContaining('/stop_reason must be one of') as unknown },
    ]);
  });

  it('reports values that are not events at all', () => {
    expect(rulesOf(checkInvariants([null, 'stream.start', 7], { partial: true }))).toEqual([
      'schema-valid',
      'first-event-is-start',
      'schema-valid',
      'schema-valid',
    ]);
  });

  it('omits seq when the event has no readable one', () => {
    const [violation] = checkInvariants([{ type: 'stream.start' }], { partial: true });
    expect(violation).toEqual({ rule: 'schema-valid', index: 0, message: expect.any(String) as unknown });
  });
});
