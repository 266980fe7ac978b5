import { readFileSync } from 'node:fs';
import { listTranscripts } from '@llm-stream/testing';
import { outcomeMismatch, outcomeOf } from '../src/check/outcome.js';
import type { Expectation, StoredEvent } from '../src/recorded-run.js';

// The checker reads outcomes off events with its own fold: it must agree with every transcript's expectation
// when given the kit's own normalized event lists (.events.json), or a chaos run would report false failures.
const transcripts = listTranscripts();

describe('the checker outcome fold over the conformance kit', () => {
  it('covers the whole kit', () => {
    expect(transcripts.length).toBeGreaterThanOrEqual(133);
  });

  it.each(transcripts.map((t) => [`${t.provider}/${t.name}`, t] as const))('%s matches its .expect.json', (_name, transcript) => {
    const events = JSON.parse(readFileSync(transcript.ssePath.replace(/\.sse$/, '.events.json'), 'utf8')) as StoredEvent[];
    const expectation = JSON.parse(readFileSync(transcript.expectPath, 'utf8')) as Expectation;
    expect(outcomeMismatch(outcomeOf(events), expectation)).toBeNull();
  });

  it('reports a different text, terminal and category', () => {
    const expectation: Expectation = { terminal: 'completed', stop_reason_normalized: 'end_turn', blocks: [{ kind: 'text', text: 'Hi' }] };
    const block = { index: 0, kind: 'text' };
    const events: StoredEvent[] = [
      { seq: 1, type: 'stream.start' },
      { seq: 2, type: 'block.start', block },
      { seq: 3, type: 'block.delta', block, delta: { kind: 'text', text: 'Ho' } },
      { seq: 4, type: 'block.stop', block },
      { seq: 5, type: 'stream.done', stop_reason: 'end_turn' },
    ];
    expect(outcomeMismatch(outcomeOf(events), expectation)).toBe('block 0 text differs from the transcript\'s');
    const cut = [...events.slice(0, 3), { seq: 4, type: 'stream.error', status: 'interrupted', error: { category: 'timeout' } }];
    expect(outcomeMismatch(outcomeOf(cut), expectation)).toBe('ended interrupted, expected completed');
    expect(outcomeMismatch(outcomeOf(cut), { terminal: 'interrupted', error_category: 'transport_interrupted' })).toBe(
      'error category timeout, expected transport_interrupted',
    );
  });
});
