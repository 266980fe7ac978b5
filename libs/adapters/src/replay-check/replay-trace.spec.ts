import { assemble, type MachineInput, type ProviderName } from '@llm-stream/contract';
import { loadTranscripts } from '../../test/conformance-harness.js';
import { AnthropicAdapter } from '../anthropic/anthropic-adapter.js';
import { createProviderAdapter } from '../adapter-registry.js';
import { normalizeTranscript } from '../normalize-transcript.js';
import { replayTrace } from './replay-trace.js';

const PROVIDERS: readonly ProviderName[] = ['anthropic', 'openai-chat', 'openai-responses', 'gemini'];

describe('replayTrace', () => {
  it.each(PROVIDERS.flatMap((provider) => loadTranscripts(provider).map((transcript) => [`${provider}/${transcript.name}`, transcript] as const)))(
    'gives back the events of %s, each under the record that produced it',
    (_name, transcript) => {
      const { records, events } = normalizeTranscript(transcript.provider, transcript.body, { streamId: 'st_replay', clock: () => 7 });
      const produced = replayTrace(records);
      expect(produced).toHaveLength(records.length);
      expect(produced.flat()).toEqual(events);
      expect(produced[0]?.map((event) => event.type)).toEqual(['stream.start']);
    },
  );

  it('yields nothing for a record that could not be read back, and replays the rest', () => {
    const { records, events } = normalizeTranscript('anthropic', loadTranscripts('anthropic')[0]!.body, { clock: () => 1 });
    const produced = replayTrace([null, ...records]);
    expect(produced[0]).toEqual([]);
    expect(produced.flat()).toEqual(events);
  });

  it('replays with the adapters it is given: a changed stop-reason mapping changes the outcome', () => {
    const transcript = loadTranscripts('anthropic').find((candidate) => candidate.name === 'simple_text')!;
    const { records } = normalizeTranscript('anthropic', transcript.body, { clock: () => 1 });
    const changed = replayTrace(records, {
      createAdapter: (provider) => {
        if (provider !== 'anthropic') return createProviderAdapter(provider);
        const adapter = new AnthropicAdapter();
        const toMaxTokens = (inputs: readonly MachineInput[]): MachineInput[] => inputs.map((input) => (input.type === 'finish' ? { ...input, stop_reason: 'max_tokens' } : input));
        return { provider, response: (record) => toMaxTokens(adapter.response(record)), frame: (frame) => toMaxTokens(adapter.frame(frame)), end: (record) => toMaxTokens(adapter.end(record)) };
      },
    });
    expect(assemble(replayTrace(records).flat()).stop_reason).toBe('end_turn');
    expect(assemble(changed.flat()).stop_reason).toBe('max_tokens');
  });
});
