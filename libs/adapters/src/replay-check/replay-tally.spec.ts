import { loadTranscripts } from '../../test/conformance-harness.js';
import { normalizeTranscript } from '../normalize-transcript.js';
import { ReplayTally, replayCheck } from './replay-tally.js';

const stored = (name: string) => normalizeTranscript('anthropic', loadTranscripts('anthropic').find((transcript) => transcript.name === name)!.body, { clock: () => 1 });

describe('replayCheck', () => {
  it('replays an ended stream: both outcomes, no change with this build', () => {
    const { records, events } = stored('simple_text');
    const verdict = replayCheck({ running: false, records, events });
    expect(verdict).toMatchObject({ kind: 'replayed', changes: [] });
    expect(verdict.kind === 'replayed' && verdict.replayed).toEqual(verdict.kind === 'replayed' && verdict.stored);
  });

  it('sees a stored outcome the trace does not give', () => {
    const { records, events } = stored('simple_text');
    const altered = events.map((event) => (event.type === 'stream.done' ? { ...event, stop_reason: 'max_tokens' as const } : event));
    expect(replayCheck({ running: false, records, events: altered })).toMatchObject({ kind: 'replayed', changes: [{ field: 'stop_reason', stored: 'max_tokens', replayed: 'end_turn' }] });
  });

  it('does not replay a running stream, one without raw records, nor one with a record that could not be read back', () => {
    const { records, events } = stored('simple_text');
    expect(replayCheck({ running: true, records, events })).toEqual({ kind: 'unreplayable', reason: 'running' });
    expect(replayCheck({ running: false, records: [], events })).toEqual({ kind: 'unreplayable', reason: 'no_raw_trace' });
    expect(replayCheck({ running: false, records: [...records, null], events })).toEqual({ kind: 'unreplayable', reason: 'unreadable_record' });
  });
});

describe('ReplayTally', () => {
  it('counts per provider (unknown for none, in name order) and overall', () => {
    const tally = new ReplayTally();
    const unchanged = { kind: 'replayed', stored: {} as never, replayed: {} as never, changes: [] } as const;
    tally.add('openai-chat', unchanged);
    tally.add('anthropic', { ...unchanged, changes: [{ field: 'status', stored: 'completed', replayed: 'failed' }] });
    tally.add('anthropic', unchanged);
    tally.add(null, { kind: 'unreplayable', reason: 'no_raw_trace' });
    expect(tally.byProvider()).toEqual([
      ['anthropic', { replayed: 2, changed: 1, unreplayable: 0 }],
      ['openai-chat', { replayed: 1, changed: 0, unreplayable: 0 }],
      ['unknown', { replayed: 0, changed: 0, unreplayable: 1 }],
    ]);
    expect(tally.counts()).toEqual({ replayed: 3, unchanged: 2, changed: 1, unreplayable: 1 });
  });
});
