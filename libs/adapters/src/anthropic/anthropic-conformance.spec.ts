import fc from 'fast-check';
import { assemble, type ProviderName } from '@llm-stream/contract';
import {
  essentialEvents,
  expectConformance,
  loadTranscripts,
  noisyChunks,
  normalizeForKit,
} from '../../test/conformance-harness.js';
import { runTranscript } from '../session/run-transcript.js';
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
    const names = transcripts.map((transcript) => transcript.name);
    const recorded = [
      'simple_text',
      'multi_block',
      'tool_fragmented_json',
      'parallel_tools',
      'error_mid_stream',
      'interrupted',
      'reasoning',
      'refusal',
    ];
    expect(names).toEqual(expect.arrayContaining(recorded));
    expect(names.length - recorded.length).toBeGreaterThanOrEqual(12);
  });

  it('carries redacted_thinking data byte-exact on its block.stop (the .expect.json format has no field for it)', () => {
    const transcript = transcripts.find((candidate) => candidate.name === 'redacted_thinking');
    if (!transcript) throw new Error('missing transcript redacted_thinking');
    const data = /"type":"redacted_thinking","data":"([^"]+)"/.exec(transcript.body.toString('utf8'))?.[1];
    expect(data).toBeDefined();
    const { blocks } = assemble(normalizeForKit('anthropic', transcript.body, createAdapter).events);
    expect(blocks[1]).toMatchObject({ kind: 'reasoning', complete: true, provider_metadata: { anthropic: { redacted_thinking: data } } });
  });

  it('counts every skipped event and part, while warning once per type', () => {
    const seen: string[] = [];
    const counter = { unknown: (provider: ProviderName, type: string): void => void seen.push(`${provider}:${type}`) };
    const body = transcripts.find((candidate) => candidate.name === 'unknown_event_type')?.body;
    if (!body) throw new Error('missing transcript unknown_event_type');
    const { events } = runTranscript('anthropic', body, { createAdapter, unknownEvents: counter });
    expect(seen).toStrictEqual([
      'anthropic:content_block_flash',
      'anthropic:content_block_delta.text_sparkle_delta',
      'anthropic:content_block_flash',
      'anthropic:message_annotation',
    ]);
    expect(events.filter((event) => event.type === 'stream.warning')).toHaveLength(3);
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
