import { admit, refusalMessage } from './admission.js';

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
