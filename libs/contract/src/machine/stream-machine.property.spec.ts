import fc from 'fast-check';
import { errorInfoArb, providerMetadataArb, warningArb } from '../../test/event-arbitraries.js';
import { identityArb, runPlan, streamPlanArb } from '../../test/stream-plans.js';
import { BLOCK_KINDS } from '../events/block.js';
import { isTerminalEvent } from '../events/contract-event.js';
import { DELTA_KINDS } from '../events/delta.js';
import { FAILURE_STATUSES } from '../events/stream-error.js';
import { STOP_REASONS } from '../events/stop-reason.js';
import type { Usage } from '../events/usage.js';
import { checkInvariants } from '../invariants/check-invariants.js';
import { validateEvent } from '../schema/validate-event.js';
import type { MachineInput } from './machine-input.js';
import { StreamMachine } from './stream-machine.js';

// Whatever an adapter feeds it (valid or not, in any order), the machine's output keeps the contract:
// each event validates against the schema and the list satisfies every invariant. Few keys, so opens,
// appends and closes collide often.
const keyArb = fc.constantFrom('a', 'b', 'c');

/** Usage as an adapter might pass it: any non-negative counts, zero optional counters included. */
const adapterUsageArb: fc.Arbitrary<Usage> = fc.record(
  {
    input_tokens: fc.nat(),
    output_tokens: fc.nat(),
    reasoning_tokens: fc.oneof(fc.constant(0), fc.nat()),
    cached_input_tokens: fc.oneof(fc.constant(0), fc.nat()),
    cache_creation_input_tokens: fc.oneof(fc.constant(0), fc.nat()),
    cache_creation: fc.record(
      { ephemeral_5m_input_tokens: fc.oneof(fc.constant(0), fc.nat()), ephemeral_1h_input_tokens: fc.oneof(fc.constant(0), fc.nat()) },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: ['input_tokens', 'output_tokens'] },
);

const inputArb: fc.Arbitrary<MachineInput> = fc.oneof(
  fc.record(
    { type: fc.constant('block.open'), key: keyArb, kind: fc.constantFrom(...BLOCK_KINDS), name: fc.string(), call_id: fc.string() },
    { requiredKeys: ['type', 'key', 'kind'] },
  ),
  fc.record({
    type: fc.constant('block.append'),
    key: keyArb,
    delta: fc.record({ kind: fc.constantFrom(...DELTA_KINDS), text: fc.oneof(fc.string(), fc.constantFrom('{', '}', '{"a":1}', '[]', '')) }),
  }),
  fc.record(
    { type: fc.constant('block.close'), key: keyArb, provider_metadata: providerMetadataArb },
    { requiredKeys: ['type', 'key'] },
  ),
  fc.record(
    {
      type: fc.constant('finish'),
      stop_reason: fc.constantFrom(...STOP_REASONS),
      provider_stop_reason: fc.option(fc.string()),
      usage: adapterUsageArb,
      response_id: fc.string(),
      provider_model: fc.string(),
    },
    { requiredKeys: ['type', 'stop_reason', 'provider_stop_reason'] },
  ),
  fc.record({ type: fc.constant('fail'), status: fc.constantFrom(...FAILURE_STATUSES), error: errorInfoArb }),
  fc.record({ type: fc.constant('warn'), warning: warningArb }),
  fc.constant<MachineInput>({ type: 'heartbeat' }),
);

describe('StreamMachine properties', () => {
  it('keeps the contract for any input sequence: every event validates, no invariant breaks', () => {
    fc.assert(
      fc.property(identityArb, fc.array(inputArb, { maxLength: 30 }), (identity, inputs) => {
        const machine = new StreamMachine(identity);
        const events = machine.start(0);
        let refusedExpected = 0;
        inputs.forEach((input, i) => {
          if (machine.isTerminal) refusedExpected += 1;
          events.push(...machine.apply(input, i + 1));
        });
        for (const event of events) {
          const result = validateEvent(event);
          if (!result.ok) throw new Error(result.error.message);
        }
        expect(checkInvariants(events, { partial: !machine.isTerminal })).toEqual([]);
        expect(machine.rejectedAfterTerminal).toBe(refusedExpected);
        expect(events.filter(isTerminalEvent).length).toBe(machine.isTerminal ? 1 : 0);
      }),
      { numRuns: 1000 },
    );
  });

  it('emits only schema-valid events for valid streams (random plans), and never a protocol violation', () => {
    fc.assert(
      fc.property(streamPlanArb(), (plan) => {
        for (const event of runPlan(plan)) {
          expect(validateEvent(event).ok).toBe(true);
          if (event.type === 'stream.error') expect(event.error.message).not.toMatch(/^protocol violation/);
        }
      }),
    );
  });
});
