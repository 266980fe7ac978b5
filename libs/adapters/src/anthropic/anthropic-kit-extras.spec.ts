import { assemble, type ProviderName } from '@llm-stream/contract';
import { loadTranscripts, normalizeForKit } from '../../test/conformance-harness.js';
import { runTranscript } from '../session/run-transcript.js';
import { AnthropicAdapter } from './anthropic-adapter.js';

const createAdapter = (): AnthropicAdapter => new AnthropicAdapter();
const transcripts = loadTranscripts('anthropic');

/** What the kit's expectation format cannot say about the Anthropic transcripts (the kit itself: conformance.spec.ts). */
describe('Anthropic conformance kit, beyond the expectations', () => {
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
});
