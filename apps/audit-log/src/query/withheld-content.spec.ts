import type { ContractEvent } from '@llm-stream/contract';
import { carriesWithheld, isWithheldEvent, withheldFragments } from './withheld-content.js';

const envelope = { stream_id: 'st_1', ts: 0 };
const reasoning = { id: 'st_1.b0', index: 0, kind: 'reasoning' } as const;
const text = { id: 'st_1.b1', index: 1, kind: 'text' } as const;
const events: ContractEvent[] = [
  { ...envelope, seq: 2, type: 'block.start', block: reasoning, visibility: 'internal' },
  { ...envelope, seq: 3, type: 'block.delta', block: reasoning, delta: { kind: 'text', text: 'Thinking about Lyon' } },
  { ...envelope, seq: 4, type: 'block.stop', block: reasoning, provider_metadata: { openai: { encrypted_content: 'gAAAAB-opaque-blob' } } },
  { ...envelope, seq: 5, type: 'block.start', block: text },
];

describe('withheld content', () => {
  const fragments = withheldFragments(events, [{ index: 0, kind: 'reasoning', text: 'Thinking about Lyon. Then Paris.', complete: true }]);

  it('is the reasoning block events, and their texts and metadata strings of 8 characters or more', () => {
    expect(events.map(isWithheldEvent)).toEqual([true, true, true, false]);
    expect(fragments.sort()).toEqual(['Thinking about Lyon', 'Thinking about Lyon. Then Paris.', 'gAAAAB-opaque-blob']);
  });

  it.each([
    ['the full text repeated in a closing record', 'data: {"type":"response.reasoning_summary_text.done","text":"Thinking about Lyon. Then Paris."}'],
    ['a piece of it, JSON-escaped', 'data: {"delta":"Thinking about \\u004cyon"}'],
    ['the encrypted reasoning', 'data: {"item":{"encrypted_content":"gAAAAB-opaque-blob"}}'],
  ])('is found in %s', (_what, frame) => {
    expect(carriesWithheld(frame, fragments)).toBe(true);
  });

  it('is not found in an answer that shares fewer than 8 characters with it, nor in a frame 100,000 levels deep', () => {
    expect(carriesWithheld('data: {"delta":"Lyon is nice"}', fragments)).toBe(false);
    expect(carriesWithheld(`data: ${'['.repeat(100_000)}"x"${']'.repeat(100_000)}`, fragments)).toBe(false);
  });
});
