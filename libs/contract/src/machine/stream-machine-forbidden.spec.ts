import { append, close, drive, fail, finish, heartbeatInput, open, warnInput } from '../../test/machine-inputs.js';
import { BLOCK_KINDS } from '../events/block.js';
import { DELTA_KINDS, isDeltaAllowed } from '../events/delta.js';
import { checkInvariants } from '../invariants/check-invariants.js';
import type { MachineInput } from './machine-input.js';

interface Forbidden {
  /** Inputs that are all allowed. */
  readonly setup: readonly MachineInput[];
  /** The input that breaks a rule. */
  readonly input: MachineInput;
  /** The rule the stream.error message must name. */
  readonly message: RegExp;
}

const kindPairs = BLOCK_KINDS.flatMap((kind) =>
  DELTA_KINDS.filter((delta) => !isDeltaAllowed(kind, delta)).map((delta): [string, Forbidden] => [
    `a ${delta} delta in a ${kind} block`,
    { setup: [open('a', kind)], input: append('a', 'x', delta), message: new RegExp(`block.delta of kind ${delta} in ${kind} block 0`) },
  ]),
);

const CASES: readonly [string, Forbidden][] = [
  ['a delta for an unknown key', { setup: [open('a')], input: append('b', 'x'), message: /block.delta for key b, a block that was never started/ }],
  ['a delta after block.stop', { setup: [open('a'), close('a')], input: append('a', 'x'), message: /block.delta for block 0 after its block.stop/ }],
  ['a second start for an open key', { setup: [open('a')], input: open('a'), message: /block.start for block 0 \(key a\), which is already open/ }],
  ['a start for a closed key', { setup: [open('a'), close('a')], input: open('a', 'refusal'), message: /block.start for block 0 \(key a\) after its block.stop/ }],
  ['a second stop', { setup: [open('a'), close('a')], input: close('a'), message: /second block.stop for block 0/ }],
  ['a stop for an unknown key', { setup: [], input: close('a'), message: /block.stop for key a, a block that was never started/ }],
  ['done while a block is open', { setup: [open('a'), open('b'), close('a')], input: finish(), message: /stream.done while block 1 is still open/ }],
  ['done while several blocks are open', { setup: [open('a'), open('b')], input: finish(), message: /stream.done while block 0, 1 is still open/ }],
  [
    'a tool call closed with truncated JSON',
    { setup: [open('t', 'tool_call'), append('t', '{"city":"Al', 'json_text')], input: close('t'), message: /tool_call block 0 closed, but arguments are not valid JSON/ },
  ],
  ...['[1]', '"Alma"', '42', 'null', 'true'].map((json): [string, Forbidden] => [
    `a tool call closed with non-object JSON ${json}`,
    { setup: [open('t', 'tool_call'), append('t', json, 'json_text')], input: close('t'), message: /tool_call block 0 closed, but arguments are (an? )?\w+, not a JSON object/ },
  ]),
  ...kindPairs,
];

describe('StreamMachine: forbidden transitions end the stream with a protocol_error', () => {
  it.each(CASES)('%s', (_name, { setup, input, message }) => {
    const driven = drive(setup);
    const before = driven.events.length;
    const output = driven.machine.apply(input, 9000);
    // Exactly one event reaches the client: the stream.error, never the forbidden event itself.
    expect(output).toEqual([
      {
        type: 'stream.error',
        stream_id: 'st_1',
        seq: before + 1,
        ts: 9000,
        status: 'failed',
        error: { category: 'protocol_error', retryable: false, provider_code: null, message: expect.stringMatching(/^protocol violation: /) as unknown },
      },
    ]);
    expect(output[0]?.type === 'stream.error' && output[0].error.message).toMatch(message);
    expect(driven.machine.state).toBe('failed');
    // Blocks left open are closed internally: no fake block.stop now or later.
    expect(driven.machine.apply(close('a'), 9001)).toEqual([]);
    expect(checkInvariants([...driven.events, ...output])).toEqual([]);
  });
});

describe('StreamMachine: everything after the terminal event is refused and counted', () => {
  const terminals: readonly [string, readonly MachineInput[]][] = [
    ['stream.done', [open('a'), close('a'), finish()]],
    ['stream.error (failed)', [open('a'), fail('failed')]],
    ['stream.error (interrupted)', [fail('interrupted')]],
    ['a protocol violation', [open('a'), open('a')]],
  ];
  const later: readonly MachineInput[] = [
    open('new'),
    append('a', 'x'),
    close('a'),
    finish(),
    fail('failed'),
    warnInput,
    heartbeatInput,
  ];

  it.each(terminals)('after %s', (_name, inputs) => {
    const { machine, events } = drive(inputs);
    const state = machine.state;
    const seq = machine.lastSeq;
    later.forEach((input, i) => {
      expect(machine.apply(input, 9000 + i)).toEqual([]);
    });
    expect(machine.rejectedAfterTerminal).toBe(later.length);
    expect(machine.state).toBe(state);
    expect(machine.lastSeq).toBe(seq);
    expect(checkInvariants(events)).toEqual([]);
  });

  it('counts nothing before the terminal event', () => {
    expect(drive([open('a'), heartbeatInput, close('a'), finish()]).machine.rejectedAfterTerminal).toBe(0);
  });
});
