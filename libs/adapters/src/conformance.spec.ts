import fc from 'fast-check';
import { PROVIDERS } from '@llm-stream/contract';
import { essentialEvents, expectConformance, loadTranscripts, noisyChunks, normalizeForKit } from '../test/conformance-harness.js';
import { CONFORMANCE_NOISE } from '../test/conformance-noise.js';
import { createProviderAdapter } from './adapter-registry.js';

/** The eight recorded cases every provider has (copied from the shared transcripts). */
const RECORDED = ['simple_text', 'multi_block', 'tool_fragmented_json', 'parallel_tools', 'error_mid_stream', 'interrupted', 'reasoning', 'refusal'];

/**
 * The conformance kit, for every provider: each transcript reaches its expected outcome with a clean event
 * list equal to its golden file, and gives the same events whatever the chunking, with noise inserted.
 */
describe.each(PROVIDERS.map((provider) => [provider] as const))('%s conformance kit', (provider) => {
  const transcripts = loadTranscripts(provider);
  const createAdapter = () => createProviderAdapter(provider);

  it('has the eight recorded cases and at least ten of our own', () => {
    const names = transcripts.map((transcript) => transcript.name);
    expect(names).toEqual(expect.arrayContaining(RECORDED));
    expect(names.length - RECORDED.length).toBeGreaterThanOrEqual(10);
  });

  describe.each(transcripts.map((transcript) => [transcript.name, transcript] as const))('%s', (_name, transcript) => {
    it('reaches the expected outcome with a clean event list', () => {
      expectConformance(transcript, createAdapter);
    });

    it('gives the same events whatever the chunking, with comments, pings and unknown events inserted', () => {
      const reference = essentialEvents(normalizeForKit(provider, transcript.body, createAdapter).events);
      fc.assert(
        fc.property(noisyChunks(transcript.body, CONFORMANCE_NOISE[provider]), (chunks) => {
          expect(essentialEvents(normalizeForKit(provider, chunks, createAdapter).events)).toEqual(reference);
        }),
        { numRuns: 60 },
      );
    });
  });
});
