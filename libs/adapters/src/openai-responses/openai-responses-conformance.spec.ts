import fc from 'fast-check';
import {
  essentialEvents,
  expectConformance,
  loadTranscripts,
  noisyChunks,
  normalizeForKit,
} from '../../test/conformance-harness.js';
import { OpenAiResponsesAdapter } from './openai-responses-adapter.js';

const createAdapter = (): OpenAiResponsesAdapter => new OpenAiResponsesAdapter();
const transcripts = loadTranscripts('openai-responses');

/** Records a live Responses stream (or a proxy in front of it) can carry anywhere without changing the answer. */
const NOISE = [
  ': keep-alive\n\n',
  ':\n\n',
  'event: response.in_progress\ndata: {"type":"response.in_progress","response":{"status":"in_progress"},"sequence_number":99}\n\n',
  'event: response.audio.transcript.delta\ndata: {"type":"response.audio.transcript.delta","delta":"x","sequence_number":98}\n\n',
];

describe('OpenAI Responses conformance kit', () => {
  it('has the recorded cases and our own', () => {
    expect(transcripts.length).toBeGreaterThanOrEqual(30);
  });

  describe.each(transcripts.map((transcript) => [transcript.name, transcript] as const))('%s', (_name, transcript) => {
    it('reaches the expected outcome with a clean event list', () => {
      expectConformance(transcript, createAdapter);
    });

    it('gives the same events whatever the chunking, with comments and unknown events inserted', () => {
      const reference = essentialEvents(normalizeForKit('openai-responses', transcript.body, createAdapter).events);
      fc.assert(
        fc.property(noisyChunks(transcript.body, NOISE), (chunks) => {
          expect(essentialEvents(normalizeForKit('openai-responses', chunks, createAdapter).events)).toEqual(reference);
        }),
        { numRuns: 60 },
      );
    });
  });
});
