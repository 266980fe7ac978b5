import { AdmissionSlots, admit, refusalMessage } from './admission.js';

describe('admit', () => {
  const limits = { maxOpenStreams: 3, maxEventLoopLagMs: 200 };

  it('admits below both limits', () => {
    expect(admit(limits, 2, 200)).toBeUndefined();
  });

  it('refuses at the open-stream limit', () => {
    const refusal = admit(limits, 3, 0);
    expect(refusal).toStrictEqual({ reason: 'open_streams', open: 3 });
    expect(refusalMessage(refusal!, limits)).toContain('MAX_OPEN_STREAMS 3');
  });

  it('refuses while the event loop lags past its bound', () => {
    const refusal = admit(limits, 0, 201);
    expect(refusal).toStrictEqual({ reason: 'event_loop_lag', lagMs: 201 });
    expect(refusalMessage(refusal!, limits)).toContain('MAX_EVENT_LOOP_LAG_MS 200');
  });
});

describe('AdmissionSlots', () => {
  const limits = { maxOpenStreams: 3, maxEventLoopLagMs: 200 };

  /** Slots over `held` open streams and a lag of `lagMs`; `taken` takes `count` slots in one synchronous burst. */
  function slots(held = 0, lagMs = 0) {
    const open = { held, lagMs };
    const admission = new AdmissionSlots(limits, () => open.held, () => open.lagMs);
    const taken = (count: number) => Array.from({ length: count }, () => admission.take());
    return { admission, open, taken };
  }

  it('admits exactly the bound of a burst taken before any opening ends, and refuses the rest without holding a slot', () => {
    const { admission, taken } = slots();
    const burst = taken(9);
    expect(burst.filter((taking) => taking.admitted)).toHaveLength(3);
    expect(burst.slice(3)).toStrictEqual(Array.from({ length: 6 }, () => ({ admitted: false, refusal: { reason: 'open_streams', open: 3 } })));
    expect(admission.refusal()).toStrictEqual({ reason: 'open_streams', open: 3 });
  });

  it('counts the held streams with the openings; a released slot is free again, once however often it is released', () => {
    const { admission, open, taken } = slots(1);
    const [first, second, third] = taken(3);
    expect([first?.admitted, second?.admitted, third?.admitted]).toStrictEqual([true, true, false]);
    if (!first?.admitted) throw new Error('the first slot was refused');
    // The first opening's stream is held now: counted as held, its slot released (twice: idempotent).
    open.held = 2;
    first.slot.release();
    first.slot.release();
    expect(admission.refusal()).toStrictEqual({ reason: 'open_streams', open: 3 });
    if (!second?.admitted) throw new Error('the second slot was refused');
    // The second request failed before its stream existed: its slot is free for one more.
    second.slot.release();
    expect(taken(2).map((taking) => taking.admitted)).toStrictEqual([true, false]);
  });

  it('refuses on event-loop lag without holding a slot', () => {
    const { admission, open, taken } = slots(0, 201);
    expect(taken(2)).toStrictEqual(Array.from({ length: 2 }, () => ({ admitted: false, refusal: { reason: 'event_loop_lag', lagMs: 201 } })));
    open.lagMs = 0;
    expect(taken(4).map((taking) => taking.admitted)).toStrictEqual([true, true, true, false]);
    expect(admission.refusal()).toMatchObject({ reason: 'open_streams' });
  });
});
