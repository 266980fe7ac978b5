import type { ContractEvent } from '@llm-stream/contract';
import { EventOrderCheck } from './event-order-check.js';

const base = { stream_id: 'st_order', ts: 1 };
const start = (seq: number): ContractEvent => ({ ...base, seq, type: 'stream.start', provider: 'anthropic', model: 'm', tenant: 't' });
const ref = (index: number, kind: 'text' | 'reasoning' = 'text') => ({ id: `st_order.b${index}`, index, kind });
const blockStart = (seq: number, index: number): ContractEvent => ({ ...base, seq, type: 'block.start', block: ref(index) });
const delta = (seq: number, index: number): ContractEvent => ({ ...base, seq, type: 'block.delta', block: ref(index), delta: { kind: 'text', text: 'x' } });
const stop = (seq: number, index: number): ContractEvent => ({ ...base, seq, type: 'block.stop', block: ref(index) });

function verdicts(check: EventOrderCheck, events: readonly ContractEvent[]): string[] {
  return events.map((event) => check.accept(event).kind);
}

describe('EventOrderCheck', () => {
  it('delivers a contiguous stream and drops what a resume repeats', () => {
    const check = new EventOrderCheck({ afterSeq: 0, contiguous: true });
    expect(verdicts(check, [start(1), blockStart(2, 0), delta(3, 0)])).toEqual(['deliver', 'deliver', 'deliver']);
    expect(verdicts(check, [delta(3, 0), blockStart(2, 0), stop(4, 0)])).toEqual(['duplicate', 'duplicate', 'deliver']);
    expect(check.lastSeq).toBe(4);
  });

  it('reports a skipped seq when nothing may be withheld, without moving past it', () => {
    const check = new EventOrderCheck({ afterSeq: 0, contiguous: true });
    check.accept(start(1));
    expect(check.accept(blockStart(3, 0))).toMatchObject({ kind: 'gap', seq: 3, message: 'seq 2 is missing (got 3)' });
    expect(check.lastSeq).toBe(1);
  });

  it('in a projection, lets seq skip withheld reasoning events but catches a lost visible one', () => {
    const projected = new EventOrderCheck({ afterSeq: 0, contiguous: false });
    // seq 2-4 were a reasoning block, withheld.
    expect(verdicts(projected, [start(1), blockStart(5, 1), delta(6, 1), stop(7, 1)])).toEqual(['deliver', 'deliver', 'deliver', 'deliver']);

    const lostStart = new EventOrderCheck({ afterSeq: 0, contiguous: false });
    lostStart.accept(start(1));
    expect(lostStart.accept(delta(3, 0))).toMatchObject({ kind: 'gap' });

    const lostFirst = new EventOrderCheck({ afterSeq: 0, contiguous: false });
    expect(lostFirst.accept(blockStart(2, 0))).toMatchObject({ kind: 'gap' });
  });

  it('after a given seq, requires only that seq increases (the blocks opened before are unknown)', () => {
    const check = new EventOrderCheck({ afterSeq: 10, contiguous: false });
    expect(verdicts(check, [delta(12, 0), delta(10, 0), stop(13, 0)])).toEqual(['deliver', 'duplicate', 'deliver']);
  });
});
