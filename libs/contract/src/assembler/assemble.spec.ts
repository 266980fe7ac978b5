import fc from 'fast-check';
import {
  blockStart,
  blockStop,
  delta,
  done,
  failure,
  heartbeat,
  numbered,
  seedExample,
  start,
  type Draft,
} from '../../test/event-builders.js';
import { expectedBlocks, expectedStatus, runPlan, streamPlanArb } from '../../test/stream-plans.js';
import type { ContractEvent } from '../events/contract-event.js';
import { assemble } from './assemble.js';
import { Assembler } from './assembler.js';

const toolStream = (json: readonly string[]): ContractEvent[] =>
  numbered([
    start(),
    blockStart(0, 'tool_call', { name: 'get_weather', call_id: 'call_1' }),
    ...json.map((part) => delta(0, part, 'tool_call')),
    blockStop(0, 'tool_call'),
    done(),
  ]);

describe('assemble', () => {
  it('folds the seed example: blocks in index order, text concatenated, arguments parsed', () => {
    expect(assemble(seedExample())).toEqual({
      status: 'completed',
      stop_reason: 'end_turn',
      provider_stop_reason: 'end_turn',
      usage: null,
      error: null,
      blocks: [
        { index: 0, kind: 'text', text: 'Проверяю расписание.', complete: true },
        {
          index: 1,
          kind: 'tool_call',
          name: 'get_schedule',
          call_id: 'call_1',
          raw_arguments: '{"date":"2026-07-23"}',
          arguments: { date: '2026-07-23' },
          complete: true,
        },
        { index: 2, kind: 'text', text: 'На сегодня доступно...', complete: true },
      ],
      problems: [],
    });
  });

  it('carries the final metadata of stream.done', () => {
    const events = numbered([
      start(),
      {
        ...(done() as Extract<Draft, { type: 'stream.done' }>),
        stop_reason: 'max_tokens',
        provider_stop_reason: 'length',
        usage: { input_tokens: 10, output_tokens: 20, cached_input_tokens: 4, cache_creation_input_tokens: 6 },
        response_id: 'chatcmpl-1',
        provider_model: 'gpt-test-2026',
        provider_metadata: { 'openai-responses': { service_tier: 'default' } },
      },
    ]);
    expect(assemble(events)).toMatchObject({
      status: 'completed',
      stop_reason: 'max_tokens',
      provider_stop_reason: 'length',
      usage: { input_tokens: 10, output_tokens: 20, cached_input_tokens: 4, cache_creation_input_tokens: 6 },
      response_id: 'chatcmpl-1',
      provider_model: 'gpt-test-2026',
      provider_metadata: { 'openai-responses': { service_tier: 'default' } },
    });
  });

  it('keeps reasoning text, its signature and the provider metadata of block.stop byte-exact', () => {
    const metadata = { anthropic: { redacted_thinking: 'EqQBCkYIARgCKkDx\u00e9/+==' } };
    const events = numbered([
      start(),
      blockStart(0, 'reasoning'),
      delta(0, 'Let me '),
      delta(0, '', 'reasoning'),
      delta(0, 'think.', 'reasoning'),
      delta(0, 'EqQB', 'reasoning', 'signature'),
      delta(0, 'Ckam==', 'reasoning', 'signature'),
      { ...(blockStop(0, 'reasoning') as Extract<Draft, { type: 'block.stop' }>), provider_metadata: metadata },
      done(),
    ]).map((event) => (event.type === 'block.delta' ? { ...event, block: { ...event.block, kind: 'reasoning' as const } } : event));
    const [block] = assemble(events).blocks;
    expect(block).toEqual({ index: 0, kind: 'reasoning', text: 'Let me think.', signature: 'EqQBCkam==', provider_metadata: metadata, complete: true });
    expect(block?.provider_metadata).toBe(metadata);
  });

  it('parses empty and blank tool arguments as {} (a zero-parameter call)', () => {
    expect(assemble(toolStream([])).blocks[0]).toMatchObject({ raw_arguments: '', arguments: {}, complete: true });
    expect(assemble(toolStream(['', ' \n'])).blocks[0]).toMatchObject({ raw_arguments: ' \n', arguments: {}, complete: true });
  });

  it.each([
    [['{"city":', '"Alma"'], 'arguments are not valid JSON'],
    [['[1, 2]'], 'arguments are an array, not a JSON object'],
    [['"Alma"'], 'arguments are a string, not a JSON object'],
  ])('records a protocol_error, not a tool error, for closed arguments %j', (json, why) => {
    const result = assemble(toolStream(json));
    expect(result.blocks[0]).toEqual({
      index: 0,
      kind: 'tool_call',
      name: 'get_weather',
      call_id: 'call_1',
      raw_arguments: json.join(''),
      complete: true,
    });
    expect(result.problems).toEqual([
      { category: 'protocol_error', code: 'invalid_tool_arguments', seq: json.length + 3, block_index: 0, message: expect.any(String) as unknown },
    ]);
    expect(result.problems[0]?.message).toContain(`tool_call block 0 stopped, but ${why}`);
  });

  it.each(['failed', 'interrupted'] as const)('keeps the draft of a %s stream: unclosed blocks incomplete, no arguments', (status) => {
    const events = numbered([
      start(),
      blockStart(0),
      delta(0, 'Checking '),
      delta(0, 'the weather'),
      blockStop(0),
      blockStart(1, 'tool_call', { name: 'get_weather' }),
      delta(1, '{"city":"Al', 'tool_call'),
      blockStart(2),
      delta(2, 'Meanwhile'),
      failure(status),
    ]);
    const result = assemble(events);
    expect(result.status).toBe(status);
    expect(result.stop_reason).toBeNull();
    expect(result.usage).toBeNull();
    expect(result.error?.category).toBe(status === 'failed' ? 'upstream_overloaded' : 'transport_interrupted');
    expect(result.blocks).toEqual([
      { index: 0, kind: 'text', text: 'Checking the weather', complete: true },
      { index: 1, kind: 'tool_call', name: 'get_weather', raw_arguments: '{"city":"Al', complete: false },
      { index: 2, kind: 'text', text: 'Meanwhile', complete: false },
    ]);
    expect(result.problems).toEqual([]);
  });

  it('reports a stream without a terminal event as open', () => {
    const result = assemble(numbered([start(), blockStart(0), delta(0, 'so far')]));
    expect(result).toMatchObject({ status: 'open', stop_reason: null, error: null, blocks: [{ text: 'so far', complete: false }] });
  });

  it('ignores heartbeats and warnings', () => {
    const noisy = numbered([start(), heartbeat(), blockStart(0), heartbeat(), delta(0, 'Hi'), blockStop(0), heartbeat(), done()]);
    const plain = numbered([start(), blockStart(0), delta(0, 'Hi'), blockStop(0), done()]);
    expect(assemble(noisy)).toEqual(assemble(plain));
  });

  it('orders blocks by index, even when a projection skips indexes', () => {
    const events = numbered([start(), blockStart(1), blockStart(3), delta(3, 'b'), delta(1, 'a'), blockStop(3), blockStop(1), done()]);
    expect(assemble(events).blocks.map((block) => [block.index, block.text])).toEqual([
      [1, 'a'],
      [3, 'b'],
    ]);
  });
});

describe('assemble: events that break the contract become problems and are ignored', () => {
  it.each([
    ['a delta for an unknown block', [start(), delta(0, 'x'), done()], 'delta_without_open_block'],
    ['a delta after block.stop', [start(), blockStart(0), blockStop(0), delta(0, 'x'), done()], 'delta_without_open_block'],
    ['a second block.stop', [start(), blockStart(0), blockStop(0), blockStop(0), done()], 'stop_without_open_block'],
    ['a block.stop for an unknown block', [start(), blockStop(0), done()], 'stop_without_open_block'],
    ['a second block.start', [start(), blockStart(0), blockStart(0), blockStop(0), done()], 'duplicate_block_start'],
    ['a delta naming another kind', [start(), blockStart(0), delta(0, 'x', 'refusal'), blockStop(0), done()], 'block_ref_mismatch'],
    ['stream.done with an open block', [start(), blockStart(0), done()], 'done_with_open_block'],
    ['an event after the terminal', [start(), done(), heartbeat()], 'event_after_terminal'],
  ] as const)('%s', (_name, drafts, code) => {
    const result = assemble(numbered(drafts));
    expect(result.problems.map((problem) => [problem.category, problem.code])).toEqual([['protocol_error', code]]);
    expect(result.blocks.every((block) => block.text === undefined || block.text === '')).toBe(true);
  });
});

describe('Assembler (incremental)', () => {
  it('parses tool arguments only at block.stop', () => {
    const assembler = new Assembler();
    const events = toolStream(['{"city":', '"Alma"}']);
    events.slice(0, 4).forEach((event) => { assembler.push(event); });
    expect(assembler.result().blocks[0]).toEqual({
      index: 0,
      kind: 'tool_call',
      name: 'get_weather',
      call_id: 'call_1',
      raw_arguments: '{"city":"Alma"}',
      complete: false,
    });
    assembler.push(events[4]!);
    expect(assembler.result().blocks[0]).toMatchObject({ arguments: { city: 'Alma' }, complete: true });
  });

  it('returns snapshots that later events do not change', () => {
    const assembler = new Assembler();
    const events = seedExample();
    const snapshots = events.map((event) => {
      assembler.push(event);
      return { result: assembler.result(), copy: structuredClone(assembler.result()) };
    });
    for (const { result, copy } of snapshots) expect(result).toEqual(copy);
  });

  it('gives after each event exactly what assemble gives for that prefix (property)', () => {
    fc.assert(
      fc.property(streamPlanArb(), (plan) => {
        const events = runPlan(plan);
        const assembler = new Assembler();
        events.forEach((event, i) => {
          assembler.push(event);
          expect(assembler.result()).toEqual(assemble(events.slice(0, i + 1)));
        });
      }),
      { numRuns: 100 },
    );
  });
});

describe('assemble properties', () => {
  it('assembles every valid stream to what its plan says, with no problems', () => {
    fc.assert(
      fc.property(streamPlanArb(), (plan) => {
        const result = assemble(runPlan(plan));
        expect(result.status).toBe(expectedStatus(plan));
        expect(result.blocks).toEqual(expectedBlocks(plan));
        expect(result.problems).toEqual([]);
        if (plan.ending?.type === 'finish') {
          expect(result.stop_reason).toBe(plan.ending.stop_reason);
          expect(result.provider_stop_reason).toBe(plan.ending.provider_stop_reason);
          expect(result.usage).toEqual(plan.ending.usage ?? null);
        }
        if (plan.ending?.type === 'fail') expect(result.error).toEqual(plan.ending.error);
      }),
      { numRuns: 500 },
    );
  });
});
