import { append, close, drive, fail, finish, heartbeatInput, IDENTITY, open, warnInput } from '../../test/machine-inputs.js';
import { BLOCK_KINDS } from '../events/block.js';
import { ALLOWED_DELTA_KINDS } from '../events/delta.js';
import { checkInvariants } from '../invariants/check-invariants.js';
import { validateEvent } from '../schema/validate-event.js';
import type { MachineInput } from './machine-input.js';
import { StreamMachine } from './stream-machine.js';

/** Every event valid against the schema and the stream free of invariant violations. */
function expectContract(events: readonly unknown[], partial: boolean): void {
  for (const event of events) expect(validateEvent(event)).toMatchObject({ ok: true });
  expect(checkInvariants(events, { partial })).toEqual([]);
}

describe('StreamMachine: idle -> open', () => {
  it('emits stream.start with seq 1, the identity and the given time', () => {
    const machine = new StreamMachine(IDENTITY);
    expect(machine.state).toBe('idle');
    expect(machine.start(1234)).toEqual([
      { type: 'stream.start', stream_id: 'st_1', seq: 1, ts: 1234, provider: 'anthropic', model: 'claude-test', tenant: 'acme' },
    ]);
    expect(machine.state).toBe('open');
    expect(machine.lastSeq).toBe(1);
    expect(machine.isTerminal).toBe(false);
  });

  it('treats a second start and an input before start as programmer errors', () => {
    const machine = new StreamMachine(IDENTITY);
    expect(() => machine.apply(heartbeatInput, 1)).toThrow(/before start/);
    machine.start(1);
    expect(() => machine.start(2)).toThrow(/called in state open/);
  });
});

describe('StreamMachine: allowed transitions', () => {
  it('open -> receiving: block.open emits block.start with a derived id and the next index', () => {
    const { machine, outputs } = drive([open('a')]);
    expect(outputs[0]).toEqual([{ type: 'block.start', stream_id: 'st_1', seq: 2, ts: 1001, block: { id: 'st_1.b0', index: 0, kind: 'text' } }]);
    expect(machine.state).toBe('receiving');
  });

  it('puts name and call_id on block.start when the adapter knows them, and only then', () => {
    const { outputs } = drive([open('t', 'tool_call', { name: 'get_weather', call_id: 'call_1' }), open('u', 'tool_call')]);
    expect(outputs[0]?.[0]).toMatchObject({ name: 'get_weather', call_id: 'call_1' });
    expect(outputs[1]?.[0]).not.toHaveProperty('name');
    expect(outputs[1]?.[0]).not.toHaveProperty('call_id');
  });

  it.each(BLOCK_KINDS)('marks a %s block internal exactly when it is reasoning', (kind) => {
    const [event] = drive([open('a', kind)]).outputs[0] ?? [];
    if (kind === 'reasoning') expect(event).toHaveProperty('visibility', 'internal');
    else expect(event).not.toHaveProperty('visibility');
  });

  it.each(BLOCK_KINDS.flatMap((kind) => ALLOWED_DELTA_KINDS[kind].map((delta) => [kind, delta] as const)))(
    'appends a %s block\'s %s delta unchanged',
    (kind, deltaKind) => {
      const text = deltaKind === 'json_text' ? '{"a":' : 'x\u{1F600}';
      const { outputs, machine } = drive([open('a', kind), append('a', text, deltaKind)]);
      expect(outputs[1]).toEqual([
        { type: 'block.delta', stream_id: 'st_1', seq: 3, ts: 1002, block: { id: 'st_1.b0', index: 0, kind }, delta: { kind: deltaKind, text } },
      ]);
      expect(machine.state).toBe('receiving');
    },
  );

  it('closes a block with block.stop, carrying provider metadata byte-exact', () => {
    const metadata = { gemini: { thought_signature: 'CrsBAb4+9vs=' } };
    const { outputs } = drive([open('a'), close('a', metadata)]);
    expect(outputs[1]).toEqual([{ type: 'block.stop', stream_id: 'st_1', seq: 3, ts: 1002, block: { id: 'st_1.b0', index: 0, kind: 'text' }, provider_metadata: metadata }]);
    expect(outputs[1]?.[0]).toHaveProperty('provider_metadata', metadata);
    expect(drive([open('a'), close('a')]).outputs[1]?.[0]).not.toHaveProperty('provider_metadata');
  });

  it('closes a tool call whose fragments concatenate to a JSON object', () => {
    const { outputs, events } = drive([open('t', 'tool_call'), append('t', '{"city":', 'json_text'), append('t', '"Alma"}', 'json_text'), close('t'), finish()]);
    expect(outputs[3]?.[0]?.type).toBe('block.stop');
    expectContract(events, false);
  });

  it.each(['', '  ', '\n'])('accepts tool arguments %p as a zero-parameter call', (json) => {
    const inputs = json === '' ? [open('t', 'tool_call'), close('t')] : [open('t', 'tool_call'), append('t', json, 'json_text'), close('t')];
    expect(drive(inputs).outputs.at(-1)?.[0]?.type).toBe('block.stop');
  });

  it('open -> completed: finish without any block', () => {
    const { machine, outputs } = drive([finish()]);
    expect(outputs[0]?.[0]).toMatchObject({ type: 'stream.done', seq: 2, status: 'completed' });
    expect(machine.state).toBe('completed');
  });

  it('receiving -> completed: finish after every block closed, with all final metadata and nothing else', () => {
    const fields = {
      stop_reason: 'tool_use',
      provider_stop_reason: 'tool_calls',
      usage: { input_tokens: 12, output_tokens: 30, reasoning_tokens: 8, cached_input_tokens: 4 },
      response_id: 'chatcmpl-9',
      provider_model: 'gpt-test-2026-01-01',
      provider_metadata: { 'openai-chat': { system_fingerprint: 'fp_1' } },
    } as const;
    const { machine, outputs } = drive([open('a'), close('a'), finish(fields)]);
    expect(outputs[2]).toEqual([{ type: 'stream.done', stream_id: 'st_1', seq: 4, ts: 1003, status: 'completed', ...fields }]);
    expect(machine.state).toBe('completed');
    expect(machine.isTerminal).toBe(true);
  });

  it('drops zero reasoning and cached token counts: the contract has them only when non-zero', () => {
    const usage = { input_tokens: 7, output_tokens: 0, reasoning_tokens: 0, cached_input_tokens: 0 };
    const { events, outputs } = drive([finish({ usage })]);
    expect(outputs[0]?.[0]).toHaveProperty('usage', { input_tokens: 7, output_tokens: 0 });
    expectContract(events, false);
    const kept = drive([finish({ usage: { ...usage, reasoning_tokens: 3 } })]).outputs[0]?.[0];
    expect(kept).toHaveProperty('usage', { input_tokens: 7, output_tokens: 0, reasoning_tokens: 3 });
  });

  it('keeps cache creation counts only when non-zero, and their split as reported', () => {
    const none = { input_tokens: 7, output_tokens: 2, cache_creation_input_tokens: 0, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 } };
    expect(drive([finish({ usage: none })]).outputs[0]?.[0]).toHaveProperty('usage', { input_tokens: 7, output_tokens: 2 });
    const written = { input_tokens: 7, output_tokens: 2, cache_creation_input_tokens: 512, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 512 } };
    const { events, outputs } = drive([finish({ usage: written })]);
    expect(outputs[0]?.[0]).toHaveProperty('usage', written);
    expectContract(events, false);
  });

  it.each(['failed', 'interrupted'] as const)('open -> %s: fail emits stream.error', (status) => {
    const { machine, outputs } = drive([fail(status)]);
    expect(outputs[0]).toEqual([{ type: 'stream.error', stream_id: 'st_1', seq: 2, ts: 1001, status, error: fail(status).error }]);
    expect(machine.state).toBe(status);
  });

  it.each(['failed', 'interrupted'] as const)('receiving -> %s: fail closes open blocks internally, without block.stop', (status) => {
    const { machine, outputs, events } = drive([open('a'), open('t', 'tool_call'), append('t', '{"a"', 'json_text'), fail(status)]);
    expect(outputs[3]?.map((event) => event.type)).toEqual(['stream.error']);
    expect(events.filter((event) => event.type === 'block.stop')).toEqual([]);
    expect(machine.state).toBe(status);
    // The blocks are closed now: nothing more reaches the client for them.
    expect(machine.apply(append('a', 'late'), 2000)).toEqual([]);
    expect(machine.apply(close('t'), 2001)).toEqual([]);
    expectContract(events, false);
  });

  it.each([
    ['open', []],
    ['receiving', [open('a')]],
    ['receiving, every block closed', [open('a'), close('a')]],
  ] as const)('allows heartbeats and warnings while %s, without changing the state', (_state, setup) => {
    const { machine } = drive(setup);
    const state = machine.state;
    const seq = machine.lastSeq;
    expect(machine.apply(heartbeatInput, 5000)).toEqual([{ type: 'stream.heartbeat', stream_id: 'st_1', seq: seq + 1, ts: 5000 }]);
    expect(machine.apply(warnInput, 5001)).toEqual([
      { type: 'stream.warning', stream_id: 'st_1', seq: seq + 2, ts: 5001, warning: { code: 'unknown_event', message: 'skipped citations_delta' } },
    ]);
    expect(machine.state).toBe(state);
  });
});

describe('StreamMachine: numbering and determinism', () => {
  const inputs: MachineInput[] = [
    heartbeatInput,
    open('tool:1', 'tool_call', { name: 'a' }),
    open('msg', 'text'),
    append('msg', 'Hi'),
    open('tool:0', 'tool_call', { name: 'b' }),
    append('tool:0', '{}', 'json_text'),
    append('tool:1', '{"x":1}', 'json_text'),
    close('tool:0'),
    warnInput,
    close('msg'),
    close('tool:1'),
    finish(),
  ];

  it('numbers every event 1, 2, 3... with no gap, heartbeats and warnings included', () => {
    const { events, machine } = drive(inputs);
    expect(events.map((event) => event.seq)).toEqual(events.map((_, i) => i + 1));
    expect(machine.lastSeq).toBe(events.length);
  });

  it('assigns block indexes in order of first appearance of the adapter keys', () => {
    const starts = drive(inputs).events.flatMap((event) => (event.type === 'block.start' ? [[event.block.index, event.name ?? event.block.kind]] : []));
    expect(starts).toEqual([
      [0, 'a'],
      [1, 'text'],
      [2, 'b'],
    ]);
  });

  it('gives the same events, ids and seq for the same inputs and times (replay)', () => {
    const first = drive(inputs).events;
    expect(drive(inputs).events).toEqual(first);
    const ids = first.flatMap((event) => ('block' in event ? [event.block.id] : []));
    expect(new Set(ids)).toEqual(new Set(['st_1.b0', 'st_1.b1', 'st_1.b2']));
    expectContract(first, false);
  });

  it('derives block ids from the stream id', () => {
    const events = drive([open('a')], { ...IDENTITY, stream_id: 'other-stream' }).events;
    expect(events[1]).toMatchObject({ stream_id: 'other-stream', block: { id: 'other-stream.b0' } });
  });
});
