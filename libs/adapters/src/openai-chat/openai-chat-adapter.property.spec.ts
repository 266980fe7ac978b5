import fc from 'fast-check';
import { assemble, checkInvariants, type AssembledBlock } from '@llm-stream/contract';
import { runTranscript } from '../session/run-transcript.js';
import { chunkBytes, encodeAnswer, wellFormedAnswer, type WellFormedAnswer } from './__fixtures__/openai-chat-arbitraries.js';
import { OpenAiChatAdapter } from './openai-chat-adapter.js';

const encoder = new TextEncoder();

/** What the answer must assemble to: one block per segment, in order, all stopped. */
function expectedBlocks(answer: WellFormedAnswer): Partial<AssembledBlock>[] {
  return answer.segments.map((segment, index) =>
    segment.kind === 'tool_call'
      ? {
          index,
          kind: 'tool_call',
          name: segment.name,
          call_id: segment.id,
          raw_arguments: segment.args,
          arguments: segment.args === '' ? {} : (JSON.parse(segment.args) as NonNullable<AssembledBlock['arguments']>),
          complete: true,
        }
      : { index, kind: segment.kind, text: segment.pieces.join(''), complete: true },
  );
}

function expectedStopReason(answer: WellFormedAnswer): string {
  const kinds = new Set(answer.segments.map((segment) => segment.kind));
  switch (answer.finishReason) {
    case 'stop':
      if (kinds.has('tool_call')) return 'tool_use';
      return kinds.has('refusal') && !kinds.has('text') ? 'refusal' : 'end_turn';
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
      return 'tool_use';
    case 'content_filter':
      return 'content_filter';
  }
}

describe('OpenAiChatAdapter on generated well-formed answers', () => {
  it('assembles every block, in order and complete, whatever the chunking, interleaving and comments', () => {
    fc.assert(
      fc.property(wellFormedAnswer, fc.array(fc.nat(), { maxLength: 20 }), (answer, cuts) => {
        const body = encoder.encode(encodeAnswer(answer).join(''));
        const { events } = runTranscript('openai-chat', chunkBytes(body, cuts), { createAdapter: () => new OpenAiChatAdapter(), clock: () => 0 });
        expect(checkInvariants(events)).toEqual([]);
        const result = assemble(events);
        expect(result.problems).toEqual([]);
        expect(result.status).toBe('completed');
        expect(result.blocks).toEqual(expectedBlocks(answer).map((block) => expect.objectContaining(block) as unknown));
        expect(result.stop_reason).toBe(expectedStopReason(answer));
        expect(result.usage).toEqual(
          answer.usagePlacement === 'none' ? null : { input_tokens: answer.usage.prompt, output_tokens: answer.usage.completion },
        );
      }),
      { numRuns: 1500 },
    );
  });
});
