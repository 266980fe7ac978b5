import { assemble } from '@llm-stream/contract';
import { loadTranscripts } from '../../test/conformance-harness.js';
import { normalizeTranscript } from '../normalize-transcript.js';
import { outcomeChanges } from './outcome-changes.js';
import { replayStoredStream } from './replay-stored-stream.js';

const resultOf = (provider: 'anthropic' | 'openai-chat', name: string) => {
  const transcript = loadTranscripts(provider).find((candidate) => candidate.name === name)!;
  return normalizeTranscript(provider, transcript.body, { clock: () => 1 });
};

describe('outcomeChanges', () => {
  it('finds nothing between an outcome and itself, whatever the member order of its values', () => {
    const result = assemble(resultOf('anthropic', 'tool_fragmented_json').events);
    const reordered = { ...result, usage: { output_tokens: result.usage!.output_tokens, input_tokens: result.usage!.input_tokens } };
    expect(outcomeChanges(result, reordered)).toEqual([]);
  });

  it('names each changed field with both values: status, stop reason, error category, blocks, tool arguments, usage', () => {
    const completed = assemble(resultOf('anthropic', 'tool_fragmented_json').events);
    const failed = assemble(resultOf('anthropic', 'overloaded_error_mid_tool_json').events);
    const fields = outcomeChanges(completed, failed).map((change) => change.field);
    expect(fields).toEqual(expect.arrayContaining(['status', 'stop_reason', 'error_category', 'usage', 'blocks', 'tool_arguments']));
    expect(outcomeChanges(completed, failed).find((change) => change.field === 'status')).toEqual({ field: 'status', stored: 'completed', replayed: 'failed' });
  });

  it('sees a changed tool argument alone, on its block', () => {
    const result = assemble(resultOf('openai-chat', 'parallel_tools').events);
    const blocks = result.blocks.map((block, index) => (index === 1 ? { ...block, arguments: { changed: true } } : block));
    expect(outcomeChanges(result, { ...result, blocks })).toEqual([
      { field: 'tool_arguments', block: 1, stored: result.blocks[1]?.arguments, replayed: { changed: true } },
    ]);
  });
});

describe('replayStoredStream', () => {
  it.each(['simple_text', 'interrupted', 'error_mid_stream', 'parallel_tools'])('finds no change in the stored anthropic/%s replayed with this build', (name) => {
    const { records, events } = resultOf('anthropic', name);
    expect(replayStoredStream({ records, events })).toEqual([]);
  });
});
