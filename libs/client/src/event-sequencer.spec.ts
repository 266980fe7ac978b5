import fc from 'fast-check';
import type { ContractEvent } from '@llm-stream/contract';
import { EventSequencer, type Release } from './event-sequencer.js';
import { StreamGapError } from './stream-gap-error.js';

const OPTIONS = { gapTimeoutMs: 1_000, maxHeld: 100, maxFinished: 10 };

/** A heartbeat stands for any non-terminal event; the sequencer only reads stream_id, seq and type. */
function event(streamId: string, seq: number, terminal = false): ContractEvent {
  if (!terminal) return { type: 'stream.heartbeat', stream_id: streamId, seq, ts: 0 };
  return { type: 'stream.done', stream_id: streamId, seq, ts: 0, status: 'completed', stop_reason: 'end_turn', provider_stop_reason: null };
}

function seqs(release: Release<unknown>): number[] {
  return release.released.map((item) => item.event.seq);
}

describe('EventSequencer', () => {
  it('releases a stream read in order at once', () => {
    const sequencer = new EventSequencer<string>(OPTIONS);
    sequencer.track('st_a', 0);
    expect([1, 2, 3].map((seq) => seqs(sequencer.accept(event('st_a', seq), `m${seq}`, 0)))).toEqual([[1], [2], [3]]);
    expect(sequencer.heldCount).toBe(0);
  });

  it('holds early events until the gap fills (storage order 1, 2, 4, 5, 3)', () => {
    const sequencer = new EventSequencer<string>(OPTIONS);
    sequencer.track('st_a', 0);
    const verdicts = [1, 2, 4, 5].map((seq) => sequencer.accept(event('st_a', seq, seq === 5), `m${seq}`, 0).verdict);
    expect(verdicts).toEqual(['released', 'released', 'held', 'held']);
    expect(sequencer.heldCount).toBe(2);
    const filled = sequencer.accept(event('st_a', 3), 'm3', 10);
    expect(seqs(filled)).toEqual([3, 4, 5]);
    expect(filled.released.map((item) => item.token)).toEqual(['m3', 'm4', 'm5']);
    expect(sequencer.isFinished('st_a')).toBe(true);
    expect(sequencer.heldCount).toBe(0);
  });

  it('drops a seq already released or already held as a duplicate', () => {
    const sequencer = new EventSequencer<string>(OPTIONS);
    sequencer.track('st_a', 0);
    sequencer.accept(event('st_a', 1), 'm1', 0);
    sequencer.accept(event('st_a', 3), 'm3', 0);
    expect(sequencer.accept(event('st_a', 1), 'again', 0).verdict).toBe('duplicate');
    expect(sequencer.accept(event('st_a', 3), 'again', 0).verdict).toBe('duplicate');
    // The held copy is the one released.
    expect(sequencer.accept(event('st_a', 2), 'm2', 0).released.map((item) => item.token)).toEqual(['m2', 'm3']);
  });

  it('skips events before a tracked start and still ends at a terminal event before it', () => {
    const sequencer = new EventSequencer<string>(OPTIONS);
    sequencer.track('st_a', 2);
    expect(sequencer.accept(event('st_a', 1), 'm1', 0).verdict).toBe('skipped');
    expect(seqs(sequencer.accept(event('st_a', 3), 'm3', 0))).toEqual([3]);

    sequencer.track('st_b', 10);
    expect(sequencer.accept(event('st_b', 4, true), 'm4', 0).verdict).toBe('skipped');
    expect(sequencer.isFinished('st_b')).toBe(true);
  });

  it('starts a stream of unknown start at seq 1 at once', () => {
    const sequencer = new EventSequencer<string>(OPTIONS);
    expect(seqs(sequencer.accept(event('st_a', 1), 'm1', 0))).toEqual([1]);
    expect(sequencer.nextDeadline()).toBeUndefined();
  });

  it('joins a stream first met mid-way at its lowest held seq after the gap timeout', () => {
    const sequencer = new EventSequencer<string>(OPTIONS);
    expect(sequencer.accept(event('st_a', 6), 'm6', 100).verdict).toBe('held');
    expect(sequencer.accept(event('st_a', 5), 'm5', 200).verdict).toBe('held');
    expect(sequencer.nextDeadline()).toBe(1_100);
    expect(sequencer.expireNext(1_099)).toBeUndefined();
    const expiry = sequencer.expireNext(1_100);
    expect(expiry?.kind).toBe('joined');
    if (expiry?.kind === 'joined') expect(seqs(expiry.release)).toEqual([5, 6]);
    expect(sequencer.accept(event('st_a', 4), 'm4', 1_200).verdict).toBe('skipped');
    expect(seqs(sequencer.accept(event('st_a', 7, true), 'm7', 1_200))).toEqual([7]);
    // Still before its start, not a duplicate, once the stream has ended.
    expect(sequencer.accept(event('st_a', 3), 'm3', 1_300).verdict).toBe('skipped');
    expect(sequencer.accept(event('st_a', 6), 'm6', 1_300).verdict).toBe('duplicate');
  });

  it('never joins before the redelivery window closes', () => {
    const sequencer = new EventSequencer<string>(OPTIONS);
    sequencer.setJoinNotBefore(5_000);
    sequencer.accept(event('st_a', 6), 'm6', 0);
    expect(sequencer.nextDeadline()).toBe(5_000);
    expect(sequencer.expireNext(4_999)).toBeUndefined();
    sequencer.setJoinNotBefore(0);
    expect(sequencer.expireNext(1_000)?.kind).toBe('joined');
  });

  it('reports a gap that never fills, and can give it up', () => {
    const sequencer = new EventSequencer<string>(OPTIONS);
    sequencer.track('st_a', 0);
    sequencer.accept(event('st_a', 1), 'm1', 0);
    sequencer.accept(event('st_a', 4), 'm4', 50);
    sequencer.accept(event('st_a', 3), 'm3', 60);
    expect(sequencer.nextDeadline()).toBe(1_050);
    const expiry = sequencer.expireNext(1_050);
    expect(expiry).toEqual({ kind: 'gap', error: expect.any(StreamGapError) });
    if (expiry?.kind !== 'gap') return;
    expect(expiry.error).toMatchObject({ code: 'gap_timeout', streamId: 'st_a', expectedSeq: 2, heldSeqs: [3, 4] });
    expect(seqs(sequencer.skipGap('st_a', 1_050))).toEqual([3, 4]);
    expect(sequencer.accept(event('st_a', 2), 'm2', 1_100).verdict).toBe('duplicate');
  });

  it('restarts the gap timer when a gap fills but another remains', () => {
    const sequencer = new EventSequencer<string>(OPTIONS);
    sequencer.track('st_a', 0);
    sequencer.accept(event('st_a', 2), 'm2', 0);
    sequencer.accept(event('st_a', 4), 'm4', 0);
    sequencer.accept(event('st_a', 1), 'm1', 900);
    expect(sequencer.nextDeadline()).toBe(1_900);
  });

  it('gives way when the hold buffer is full: the oldest hold fails first', () => {
    const sequencer = new EventSequencer<string>({ ...OPTIONS, maxHeld: 2 });
    sequencer.track('st_a', 0);
    sequencer.track('st_b', 0);
    sequencer.accept(event('st_b', 2), 'b2', 0);
    sequencer.accept(event('st_a', 3), 'a3', 10);
    expect(sequencer.expireNext(10)).toBeUndefined();
    sequencer.accept(event('st_a', 4), 'a4', 20);
    const expiry = sequencer.expireNext(20);
    expect(expiry?.kind === 'gap' && expiry.error).toMatchObject({ code: 'buffer_full', streamId: 'st_b', expectedSeq: 1 });
  });

  it('drops events after a terminal event, held or late', () => {
    const sequencer = new EventSequencer<string>(OPTIONS);
    sequencer.track('st_a', 0);
    sequencer.accept(event('st_a', 3), 'm3', 0);
    const release = sequencer.accept(event('st_a', 2, true), 'm2', 0);
    expect(release.verdict).toBe('held');
    const ended = sequencer.accept(event('st_a', 1), 'm1', 0);
    expect(seqs(ended)).toEqual([1, 2]);
    expect(ended.discarded.map((item) => item.token)).toEqual(['m3']);
    expect(sequencer.heldCount).toBe(0);
    expect(sequencer.accept(event('st_a', 2, true), 'again', 0).verdict).toBe('duplicate');
    expect(sequencer.accept(event('st_a', 9), 'm9', 0).verdict).toBe('after_terminal');
  });

  it('forgets the oldest finished streams beyond its bound', () => {
    const sequencer = new EventSequencer<string>({ ...OPTIONS, maxFinished: 2 });
    for (const id of ['st_a', 'st_b', 'st_c']) sequencer.accept(event(id, 1, true), id, 0);
    expect(['st_a', 'st_b', 'st_c'].map((id) => sequencer.knows(id))).toEqual([false, true, true]);
  });

  it('delivers every stream exactly once and in order, whatever the arrival order and duplicates', () => {
    const arrival = fc
      .array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 4 })
      .chain((lengths) => {
        const copies = lengths.flatMap((length, stream) =>
          Array.from({ length }, (_, index) => ({ stream: `st_${stream}`, seq: index + 1, terminal: index + 1 === length })),
        );
        return fc.tuple(fc.constant(lengths), fc.shuffledSubarray(copies, { minLength: 0 }), fc.constant(copies));
      })
      .chain(([lengths, extra, copies]) => {
        const all = [...copies, ...extra];
        return fc.tuple(fc.constant(lengths), fc.shuffledSubarray(all, { minLength: all.length }));
      });
    fc.assert(
      fc.property(arrival, fc.boolean(), ([lengths, messages], knownStart) => {
        const sequencer = new EventSequencer<null>({ gapTimeoutMs: 1_000, maxHeld: 1_000, maxFinished: 100 });
        if (knownStart) for (let stream = 0; stream < lengths.length; stream += 1) sequencer.track(`st_${stream}`, 0);
        const delivered = new Map<string, number[]>();
        let duplicates = 0;
        for (const message of messages) {
          const result = sequencer.accept(event(message.stream, message.seq, message.terminal), null, 0);
          if (result.verdict === 'duplicate') duplicates += 1;
          for (const { event: released } of result.released) {
            delivered.set(released.stream_id, [...(delivered.get(released.stream_id) ?? []), released.seq]);
          }
        }
        lengths.forEach((length, stream) => {
          expect(delivered.get(`st_${stream}`)).toEqual(Array.from({ length }, (_, index) => index + 1));
        });
        expect(duplicates).toBe(messages.length - lengths.reduce((sum, length) => sum + length, 0));
        expect(sequencer.heldCount).toBe(0);
        expect(sequencer.nextDeadline()).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });
});
