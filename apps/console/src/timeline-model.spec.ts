import type { ContractEvent } from '@llm-stream/contract';
import { timelineModel } from './timeline-model.js';

const event = (seq: number, ts: number, type: string): ContractEvent => ({ type, stream_id: 'st_1', seq, ts }) as unknown as ContractEvent;

describe('timelineModel', () => {
  it('places frames, events and their JetStream times on one axis, with gaps, heartbeats and the time to first delta', () => {
    const model = timelineModel({
      startedAt: 1_000,
      records: [
        { raw_seq: 1, kind: 'frame', ts: 1_010 },
        { raw_seq: 2, kind: 'frame', ts: 1_020 },
        { raw_seq: 3, kind: 'frame', ts: 3_020 },
      ],
      events: [event(1, 1_011, 'stream.start'), event(2, 1_021, 'stream.heartbeat'), event(3, 3_021, 'block.delta')],
      times: [
        { seq: 1, ts: 1_011, js_time: 1_013 },
        { seq: 2, ts: 1_021, js_time: null },
        { seq: 3, ts: 3_021, js_time: 3_051 },
      ],
    });
    expect(model).toMatchObject({ start: 1_000, end: 3_051, gaps: [{ from: 1_020, to: 3_020 }], heartbeats: 1, timeToFirstDeltaMs: 2_021, maxStoreDelayMs: 30 });
    expect(model.marks.filter((mark) => mark.lane === 'stored')).toHaveLength(2);
  });

  it('has no delta time, gap or store delay for a stream without them', () => {
    const model = timelineModel({ startedAt: 5, records: [], events: [event(1, 5, 'stream.start')], times: [{ seq: 1, ts: 5, js_time: null }] });
    expect(model).toMatchObject({ start: 5, end: 6, gaps: [], heartbeats: 0, timeToFirstDeltaMs: null, maxStoreDelayMs: null });
  });
});
