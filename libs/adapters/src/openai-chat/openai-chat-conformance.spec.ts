import fc from 'fast-check';
import {
  essentialEvents,
  expectConformance,
  loadTranscripts,
  noisyChunks,
  normalizeForKit,
} from '../../test/conformance-harness.js';
import { OpenAiChatAdapter } from './openai-chat-adapter.js';

const createAdapter = (): OpenAiChatAdapter => new OpenAiChatAdapter();
const transcripts = loadTranscripts('openai-chat');

/**
 * Records a live Chat Completions stream can carry anywhere without changing the answer: keep-alive comments
 * (DeepSeek, OpenRouter), Azure's prompt-filter preamble (`choices: []` without usage), a second choice of an
 * `n > 1` request and an unknown delta field (skipped, only warned about). The inserted chunks carry no
 * `id` or `model`, which would otherwise become the response's if they came first.
 */
const NOISE = [
  ': keep-alive\n\n',
  ': OPENROUTER PROCESSING\n\n',
  ':\n\n',
  'data: {"choices":[],"created":0,"id":"","model":"","object":"","prompt_filter_results":[{"prompt_index":0,"content_filter_results":{}}]}\n\n',
  'data: {"object":"chat.completion.chunk","created":1,"choices":[{"index":1,"delta":{"content":"other choice"},"finish_reason":null}]}\n\n',
  'data: {"object":"chat.completion.chunk","created":1,"choices":[{"index":0,"delta":{"audio":{"id":"audio_1"}},"finish_reason":null}],"obfuscation":"x"}\n\n',
];

describe('OpenAI chat conformance kit', () => {
  it('has the recorded cases and at least ten of our own', () => {
    expect(transcripts.length).toBeGreaterThanOrEqual(18);
  });

  describe.each(transcripts.map((transcript) => [transcript.name, transcript] as const))('%s', (_name, transcript) => {
    it('reaches the expected outcome with a clean event list', () => {
      expectConformance(transcript, createAdapter);
    });

    it('gives the same events whatever the chunking, with comments, preambles and unknown fields inserted', () => {
      const reference = essentialEvents(normalizeForKit('openai-chat', transcript.body, createAdapter).events);
      fc.assert(
        fc.property(noisyChunks(transcript.body, NOISE), (chunks) => {
          expect(essentialEvents(normalizeForKit('openai-chat', chunks, createAdapter).events)).toEqual(reference);
        }),
        { numRuns: 60 },
      );
    });
  });
});
