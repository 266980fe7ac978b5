import fc from 'fast-check';
import {
  essentialEvents,
  expectConformance,
  loadTranscripts,
  noisyChunks,
  normalizeForKit,
} from '../../test/conformance-harness.js';
import { AnthropicAdapter } from './anthropic-adapter.js';

const createAdapter = (): AnthropicAdapter => new AnthropicAdapter();
const transcripts = loadTranscripts('anthropic');

/** Records a live Anthropic stream can carry anywhere without changing the answer. */
const NOISE = [
  ': keep-alive\n\n',
  'event: ping\ndata: {"type": "ping"}\n\n',
  'event: content_block_flash\ndata: {"type":"content_block_flash","index":0}\n\n',
  ':\n\n',
];

describe('Anthropic conformance kit', () => {
  it('has the recorded cases and our own', () => {
    expect(transcripts.length).toBeGreaterThanOrEqual(8);
  });

  describe.each(transcripts.map((transcript) => [transcript.name, transcript] as const))('%s', (_name, transcript) => {
    it('reaches the expected outcome with a clean event list', () => {
      expectConformance(transcript, createAdapter);
    });

    it('gives the same events whatever the chunking, with pings, comments and unknown events inserted', () => {
      const reference = essentialEvents(normalizeForKit('anthropic', transcript.body, createAdapter).events);
      fc.assert(
        fc.property(noisyChunks(transcript.body, NOISE), (chunks) => {
          expect(essentialEvents(normalizeForKit('anthropic', chunks, createAdapter).events)).toEqual(reference);
        }),
        { numRuns: 60 },
      );
    });
  });
});
