import { readFileSync } from 'node:fs';
import { assemble, type ContractEvent } from '@llm-stream/contract';
import { listTranscripts } from '@llm-stream/testing';
import { machineStream, toolCallStream } from '../test/stream-fixtures.js';
import { StreamOutcomeCollector } from './stream-outcome-collector.js';
import { streamOutcome } from './stream-outcome.js';

function outcomeOf(events: readonly ContractEvent[]) {
  return streamOutcome('st_x', assemble(events));
}

function transcriptEvents(ssePath: string): ContractEvent[] {
  return JSON.parse(readFileSync(ssePath.replace(/\.sse$/, '.events.json'), 'utf8')) as ContractEvent[];
}

describe('streamOutcome', () => {
  it('hands out a completed stream\'s closed tool call with its parsed arguments', () => {
    const outcome = outcomeOf(toolCallStream('st_x', 'acme', 'completed'));
    expect(outcome).toMatchObject({
      status: 'completed',
      stopReason: 'tool_use',
      usage: { input_tokens: 12, output_tokens: 34 },
      error: null,
      text: 'Checking the schedule.',
      toolCalls: [{ index: 1, name: 'get_schedule', callId: 'toolu_01', arguments: { date: '2026-07-23' } }],
      unexecutableToolCalls: [],
    });
  });

  it.each(['interrupted', 'failed'] as const)('reports, never hands out, a closed tool call when the stream ended %s', (ending) => {
    const outcome = outcomeOf(toolCallStream('st_x', 'acme', ending));
    expect(outcome.status).toBe(ending);
    expect(outcome.toolCalls).toEqual([]);
    expect(outcome.unexecutableToolCalls).toEqual([
      {
        index: 1,
        name: 'get_schedule',
        callId: 'toolu_01',
        rawArguments: '{"date":"2026-07-23"}',
        closed: true,
        reason: `stream_${ending}`,
      },
    ]);
    expect(outcome.error?.category).toBe(ending === 'interrupted' ? 'transport_interrupted' : 'upstream_overloaded');
  });

  it('reports a call whose block closed and one cut mid-arguments when the stream was interrupted', () => {
    const transcript = listTranscripts().find(
      (file) => file.provider === 'openai-responses' && file.name === 'truncated_mid_function_arguments',
    );
    const outcome = outcomeOf(transcriptEvents(transcript!.ssePath));
    expect(outcome.toolCalls).toEqual([]);
    expect(outcome.unexecutableToolCalls.map(({ index, closed, reason }) => ({ index, closed, reason }))).toEqual([
      { index: 0, closed: true, reason: 'stream_interrupted' },
      { index: 1, closed: false, reason: 'stream_interrupted' },
    ]);
  });

  it('refuses calls of a completed stream that broke the contract or never named the tool', () => {
    const events = machineStream('st_x', 'acme', [
      { type: 'block.open', key: 'a', kind: 'tool_call', call_id: 'c1' },
      { type: 'block.close', key: 'a' },
      { type: 'finish', stop_reason: 'tool_use', provider_stop_reason: null },
    ]);
    expect(outcomeOf(events).unexecutableToolCalls).toEqual([
      { index: 0, callId: 'c1', rawArguments: '', closed: true, reason: 'missing_name' },
    ]);

    // A producer that skipped the machine: stream.done with the tool block still open, and bad arguments.
    const broken: ContractEvent[] = [
      ...machineStream('st_x', 'acme', [
        { type: 'block.open', key: 'a', kind: 'tool_call', name: 'f', call_id: 'c1' },
        { type: 'block.append', key: 'a', delta: { kind: 'json_text', text: '{"x":' } },
        { type: 'block.open', key: 'b', kind: 'tool_call', name: 'g', call_id: 'c2' },
        { type: 'block.append', key: 'b', delta: { kind: 'json_text', text: '[1]' } },
      ]),
      { type: 'block.stop', stream_id: 'st_x', seq: 6, ts: 0, block: { id: 'st_x.b1', index: 1, kind: 'tool_call' } },
      { type: 'stream.done', stream_id: 'st_x', seq: 7, ts: 0, status: 'completed', stop_reason: 'tool_use', provider_stop_reason: null },
    ];
    const outcome = outcomeOf(broken);
    expect(outcome.status).toBe('completed');
    expect(outcome.toolCalls).toEqual([]);
    expect(outcome.unexecutableToolCalls.map(({ index, reason }) => ({ index, reason }))).toEqual([
      { index: 0, reason: 'block_not_closed' },
      { index: 1, reason: 'invalid_arguments' },
    ]);
  });

  it('over every recorded transcript: calls are handed out only for completed streams, and every call is in one list', () => {
    const transcripts = listTranscripts();
    expect(transcripts.length).toBeGreaterThan(100);
    for (const transcript of transcripts) {
      const result = assemble(transcriptEvents(transcript.ssePath));
      const outcome = streamOutcome('st_conformance', result);
      const label = `${transcript.provider}/${transcript.name}`;
      if (outcome.status !== 'completed') expect({ label, toolCalls: outcome.toolCalls }).toEqual({ label, toolCalls: [] });
      const toolBlocks = result.blocks.filter((block) => block.kind === 'tool_call').map((block) => block.index);
      const listed = [...outcome.toolCalls, ...outcome.unexecutableToolCalls].map((call) => call.index).sort((a, b) => a - b);
      expect({ label, listed }).toEqual({ label, listed: toolBlocks });
    }
  });
});

describe('StreamOutcomeCollector', () => {
  it('assembles interleaved streams and hands each outcome back with its terminal event', () => {
    const a = toolCallStream('st_a', 'acme', 'completed');
    const b = toolCallStream('st_b', 'acme', 'interrupted');
    const collector = new StreamOutcomeCollector();
    const outcomes = a
      .flatMap((event, index) => [event, b[index]])
      .filter((event) => event !== undefined)
      .map((event) => collector.push(event))
      .filter((outcome) => outcome !== undefined);
    expect(outcomes.map((outcome) => [outcome.streamId, outcome.status, outcome.toolCalls.length])).toEqual([
      ['st_a', 'completed', 1],
      ['st_b', 'interrupted', 0],
    ]);
    expect(collector.openStreams).toBe(0);
  });

  it('ignores a stream first met mid-way instead of assembling half of it', () => {
    const collector = new StreamOutcomeCollector();
    const events = toolCallStream('st_a', 'acme', 'completed').slice(3);
    expect(events.map((event) => collector.push(event)).filter((outcome) => outcome !== undefined)).toEqual([]);
    expect(collector.ignoredEvents).toBe(events.length);
  });
});
