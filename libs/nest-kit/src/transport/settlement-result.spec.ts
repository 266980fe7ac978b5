import { batchSettlementsOf, outcomeOf, settlementOf } from './settlement-result.js';

describe('a JetStream handler result', () => {
  it('is taken as a settlement only when it is one', () => {
    expect(settlementOf('work', { kind: 'nak', delayMs: 500 })).toEqual({ kind: 'nak', delayMs: 500 });
    expect(settlementOf('work', { kind: 'held' })).toEqual({ kind: 'held' });
    for (const wrong of [undefined, null, 'ack', { kind: 'acked' }, { kind: 'nak', delayMs: '5' }, []]) {
      expect(() => settlementOf('work', wrong)).toThrow(TypeError);
    }
  });

  it('settles a batch only with one settlement per message', () => {
    expect(batchSettlementsOf('audit', [{ kind: 'ack' }, { kind: 'term' }], 2)).toEqual([{ kind: 'ack' }, { kind: 'term' }]);
    expect(() => batchSettlementsOf('audit', [{ kind: 'ack' }], 2)).toThrow(TypeError);
    expect(() => batchSettlementsOf('audit', { kind: 'ack' }, 1)).toThrow(TypeError);
    expect(() => batchSettlementsOf('audit', [{ kind: 'ack' }, 'term'], 2)).toThrow(TypeError);
  });

  it('counts a held message as settled by its handler', () => {
    expect([{ kind: 'ack' } as const, { kind: 'nak' } as const, { kind: 'term' } as const, { kind: 'held' } as const].map(outcomeOf)).toEqual(['ack', 'nak', 'term', 'settled']);
  });
});
