import type { ContractEvent, RawTrace, RawTraceEntry, StreamDetail } from '@llm-stream/contract';
import { StreamState } from './stream-state.js';

const event = (seq: number): ContractEvent => ({ type: 'block.delta', stream_id: 'st_1', seq, ts: seq }) as unknown as ContractEvent;
const entry = (rawSeq: number): RawTraceEntry => ({ raw_seq: rawSeq, attempt: 1, kind: 'frame', ts: rawSeq, redacted: false, text: `frame ${String(rawSeq)}`, events: [] });
const seqs = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, index) => from + index);

function detail(status: 'running' | 'completed', eventSeqs: readonly number[], counts: { events: number; raw: number }, afterSeq?: number): StreamDetail {
  return {
    stream: { stream_id: 'st_1', status, event_count: counts.events, raw_count: counts.raw },
    result: { status, blocks: [] },
    draft: status !== 'completed',
    tool_calls: [],
    events: eventSeqs.map(event),
    event_times: eventSeqs.map((seq) => ({ seq, ts: seq, js_time: seq + 1 })),
    ...(afterSeq !== undefined && { events_after_seq: afterSeq }),
  } as unknown as StreamDetail;
}

const page = (after: number, rawSeqs: readonly number[], last: number): RawTrace => ({ stream_id: 'st_1', records: rawSeqs.map(entry), page: { after_js_seq: after, last_js_seq: last, more: false } });

describe('what the console holds of a stream, a read at a time', () => {
  it('appends the events and raw records of each poll to the first whole read, as one whole detail and trace', () => {
    const state = new StreamState();
    state.applyDetail(detail('running', seqs(1, 3), { events: 3, raw: 4 }));
    state.applyRawPage(page(0, seqs(1, 4), 104));
    expect([state.lastSeq, state.lastJsSeq]).toEqual([3, 104]);
    state.applyDetail(detail('completed', seqs(4, 6), { events: 6, raw: 6 }, 3));
    state.applyRawPage(page(104, seqs(5, 6), 110));
    expect(state.detail?.events.map((held) => held.seq)).toEqual(seqs(1, 6));
    expect(state.detail?.event_times.map((time) => time.seq)).toEqual(seqs(1, 6));
    expect(state.detail).not.toHaveProperty('events_after_seq');
    expect(state.detail?.stream.status).toBe('completed');
    expect(state.trace?.records.map((record) => record.raw_seq)).toEqual(seqs(1, 6));
    expect(state.matchesCounts()).toBe(true);
  });

  it('never holds an event twice, ignores a page that does not continue the last one, and says when counts differ', () => {
    const state = new StreamState();
    state.applyDetail(detail('running', seqs(1, 3), { events: 3, raw: 2 }));
    state.applyRawPage(page(0, [1, 2], 50));
    state.applyDetail(detail('running', seqs(2, 4), { events: 4, raw: 3 }, 1));
    state.applyRawPage(page(40, [3], 60));
    expect(state.detail?.events.map((held) => held.seq)).toEqual(seqs(1, 4));
    expect(state.records.map((record) => record.raw_seq)).toEqual([1, 2]);
    expect(state.matchesCounts()).toBe(false);
    // A read from the start replaces what is held.
    state.applyDetail(detail('completed', seqs(1, 4), { events: 4, raw: 3 }));
    state.applyRawPage(page(0, [1, 2, 3], 60));
    expect(state.matchesCounts()).toBe(true);
  });
});
