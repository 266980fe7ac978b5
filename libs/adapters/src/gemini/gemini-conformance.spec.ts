import fc from 'fast-check';
import {
  essentialEvents,
  expectConformance,
  loadTranscripts,
  noisyChunks,
  normalizeForKit,
} from '../../test/conformance-harness.js';
import { GeminiAdapter } from './gemini-adapter.js';

const createAdapter = (): GeminiAdapter => new GeminiAdapter();
const transcripts = loadTranscripts('gemini');

/**
 * Records a live Gemini stream can carry anywhere without changing the answer: comments, a Vertex
 * usage object without counts, an empty text part, a part type the adapter skips (which must not split the
 * text block around it) and a second candidate.
 */
const NOISE = [
  ': keep-alive\r\n\r\n',
  'data: {"usageMetadata": {"trafficType": "ON_DEMAND"}}\r\n\r\n',
  'data: {"candidates": [{"content": {"parts": [{"text": ""}],"role": "model"},"index": 0}]}\r\n\r\n',
  'data: {"candidates": [{"content": {"parts": [{"executableCode": {"language": "PYTHON","code": "print(1)"}}],"role": "model"},"index": 0}]}\r\n\r\n',
  'data: {"candidates": [{"content": {"parts": [{"text": "another candidate"}],"role": "model"},"index": 1}]}\r\n\r\n',
];

describe('Gemini conformance kit', () => {
  it('has the recorded cases and our own', () => {
    expect(transcripts.length).toBeGreaterThanOrEqual(18);
  });

  describe.each(transcripts.map((transcript) => [transcript.name, transcript] as const))('%s', (_name, transcript) => {
    it('reaches the expected outcome with a clean event list', () => {
      expectConformance(transcript, createAdapter);
    });

    it('gives the same events whatever the chunking, with comments, skipped parts and candidates inserted', () => {
      const reference = essentialEvents(normalizeForKit('gemini', transcript.body, createAdapter).events);
      fc.assert(
        fc.property(noisyChunks(transcript.body, NOISE), (chunks) => {
          expect(essentialEvents(normalizeForKit('gemini', chunks, createAdapter).events)).toEqual(reference);
        }),
        { numRuns: 60 },
      );
    });
  });
});
