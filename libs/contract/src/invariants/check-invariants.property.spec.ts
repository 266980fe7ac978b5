import fc from 'fast-check';
import { warningArb } from '../../test/event-arbitraries.js';
import {
  changeSeq,
  dropEvent,
  duplicateEvent,
  insertNoise,
  renumber,
  resplitDeltas,
  swapAdjacent,
  type Noise,
} from '../../test/event-list-transforms.js';
import { expectedStatus, runPlan, streamPlanArb, type StreamPlan } from '../../test/stream-plans.js';
import { assemble } from '../assembler/assemble.js';
import type { ContractEvent } from '../events/contract-event.js';
import { checkInvariants, type InvariantOptions } from './check-invariants.js';
import type { InvariantRule } from './invariant-rule.js';

const optionsFor = (plan: StreamPlan): InvariantOptions => ({ partial: plan.ending === undefined });
const rules = (events: readonly ContractEvent[], options: InvariantOptions): InvariantRule[] =>
  checkInvariants(events, options).map((violation) => violation.rule);

/** A stream with its events, large enough to corrupt (at least start and one more event). */
const streamArb = streamPlanArb().map((plan) => ({ plan, events: runPlan(plan) }));
const noiseArb: fc.Arbitrary<Noise> = fc.oneof(fc.constant<Noise>('heartbeat'), warningArb);

describe('checkInvariants properties', () => {
  it('(a) a valid stream (random blocks, kinds, deltas, interleaving and ending) has no violation', () => {
    fc.assert(
      fc.property(streamPlanArb(), (plan) => {
        const events = runPlan(plan);
        expect(checkInvariants(events, optionsFor(plan))).toEqual([]);
        expect(assemble(events).status).toBe(expectedStatus(plan));
      }),
      { numRuns: 500 },
    );
  });

  it('(a) the client projection of a valid stream (reasoning withheld) has no violation as a projection', () => {
    fc.assert(
      fc.property(streamPlanArb(), (plan) => {
        const projected = runPlan(plan).filter((event) => !('block' in event) || event.block.kind !== 'reasoning');
        expect(checkInvariants(projected, { ...optionsFor(plan), projection: true })).toEqual([]);
      }),
    );
  });

  it('(b) re-splitting deltas and inserting heartbeats and warnings keeps the result and the invariants', () => {
    fc.assert(
      fc.property(
        streamArb,
        fc.array(fc.array(fc.nat(), { maxLength: 3 }), { maxLength: 6 }),
        fc.array(fc.tuple(fc.nat(), noiseArb), { maxLength: 5 }),
        ({ plan, events }, cuts, noise) => {
          const rewritten = renumber(insertNoise(resplitDeltas(events, cuts), noise));
          expect(checkInvariants(rewritten, optionsFor(plan))).toEqual([]);
          const before = assemble(events);
          const after = assemble(rewritten);
          // Text, tool arguments (raw and parsed), signatures, metadata, status, stop reason, usage, error.
          expect(after).toEqual(before);
        },
      ),
      { numRuns: 300 },
    );
  });

  // (c) Corruptions of a finished full-truth log that are always detectable, and why:
  // - a duplicated event repeats a seq, and a list with a repeated seq cannot be strictly increasing;
  // - swapping two adjacent events puts a higher seq before a lower one;
  // - a dropped event leaves a seq gap (middle), a list without stream.start first (first) or without its
  //   terminal (last; the stream is checked as finished);
  // - a changed seq either goes back (not strictly increasing), jumps ahead of the next one (same), leaves a
  //   gap (the last event), or makes the first seq differ from 1.
  // Corruptions that are NOT always detectable are left out on purpose: e.g. in a projection a dropped
  // heartbeat is indistinguishable from a withheld one.
  const finishedArb = streamPlanArb()
    .filter((plan) => plan.ending !== undefined)
    .map((plan) => runPlan(plan));

  it('(c) a duplicated event is always caught as seq-strictly-increasing', () => {
    fc.assert(
      fc.property(finishedArb, fc.nat(), fc.nat(), (events, from, to) => {
        const corrupted = duplicateEvent(events, from % events.length, to % (events.length + 1));
        expect(rules(corrupted, {})).toContain('seq-strictly-increasing');
      }),
    );
  });

  it('(c) swapping two adjacent events is always caught as seq-strictly-increasing', () => {
    fc.assert(
      fc.property(finishedArb, fc.nat(), (events, at) => {
        const corrupted = swapAdjacent(events, at % (events.length - 1));
        expect(rules(corrupted, {})).toContain('seq-strictly-increasing');
      }),
    );
  });

  it('(c) a dropped event is always caught (gap, missing start or missing terminal)', () => {
    fc.assert(
      fc.property(finishedArb, fc.nat(), (events, raw) => {
        const at = raw % events.length;
        const expected: InvariantRule =
          at === 0 ? 'first-event-is-start' : at === events.length - 1 ? 'missing-terminal' : 'seq-contiguous';
        expect(rules(dropEvent(events, at), {})).toContain(expected);
      }),
    );
  });

  it('(c) a changed seq is always caught', () => {
    fc.assert(
      fc.property(finishedArb, fc.nat(), fc.integer({ min: 1, max: 1000 }), (events, raw, seq) => {
        const at = raw % events.length;
        fc.pre(seq !== at + 1);
        const found = rules(changeSeq(events, at, seq), {});
        const seqRules: InvariantRule[] = ['seq-starts-at-one', 'seq-strictly-increasing', 'seq-contiguous'];
        expect(found.some((rule) => seqRules.includes(rule))).toBe(true);
      }),
    );
  });

  it('(c) a duplicated event is caught in a client projection too (seq must still increase)', () => {
    fc.assert(
      fc.property(finishedArb, fc.nat(), fc.nat(), (events, from, to) => {
        const corrupted = duplicateEvent(events, from % events.length, to % (events.length + 1));
        expect(rules(corrupted, { projection: true })).toContain('seq-strictly-increasing');
      }),
    );
  });
});
