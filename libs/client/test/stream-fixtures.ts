import { StreamMachine, type ContractEvent, type MachineInput } from '@llm-stream/contract';

export type Ending = 'completed' | 'interrupted' | 'failed';

/** Runs inputs through the contract's own state machine, so fixtures are streams the normalizer could emit. */
export function machineStream(streamId: string, tenant: string, inputs: readonly MachineInput[]): ContractEvent[] {
  const machine = new StreamMachine({ stream_id: streamId, provider: 'anthropic', model: 'claude-test', tenant });
  let ts = 1_767_225_600_000;
  const events = machine.start(ts);
  for (const input of inputs) events.push(...machine.apply(input, (ts += 1)));
  return events;
}

function end(ending: Ending): MachineInput {
  switch (ending) {
    case 'completed':
      return { type: 'finish', stop_reason: 'tool_use', provider_stop_reason: 'tool_use', usage: { input_tokens: 12, output_tokens: 34 } };
    case 'interrupted':
      return {
        type: 'fail',
        status: 'interrupted',
        error: { category: 'transport_interrupted', retryable: null, provider_code: null, message: 'the upstream closed the stream' },
      };
    case 'failed':
      return {
        type: 'fail',
        status: 'failed',
        error: { category: 'upstream_overloaded', retryable: true, provider_code: 'overloaded_error', message: 'overloaded' },
      };
  }
}

/** A tool call as a provider streams it: its name, call id and argument JSON in pieces. */
export interface StreamedToolCall {
  readonly name: string;
  readonly callId: string;
  readonly jsonParts: readonly string[];
}

/** The seed's example call. */
export const SCHEDULE_CALL: StreamedToolCall = { name: 'get_schedule', callId: 'toolu_01', jsonParts: ['{"date":"2026-07-23"', '}'] };
/** The call of the quick start's demo answer (transcript anthropic/multi_block). */
export const WEATHER_CALL: StreamedToolCall = { name: 'get_weather', callId: 'toolu_014W1WJN8DKCKf3zLM43wAoF', jsonParts: ['{"city": "Kra', 'ków", "u', 'nit": "celsius"}'] };

/**
 * The seed's example: text, then a tool call whose block closes with complete JSON, then the end. Only the
 * ending differs, so a test can show that a closed tool block alone never makes a call executable.
 */
export function toolCallStream(streamId: string, tenant: string, ending: Ending, call: StreamedToolCall = SCHEDULE_CALL): ContractEvent[] {
  return machineStream(streamId, tenant, [
    { type: 'block.open', key: 'text', kind: 'text' },
    { type: 'block.append', key: 'text', delta: { kind: 'text', text: 'Checking the schedule.' } },
    { type: 'block.close', key: 'text' },
    { type: 'block.open', key: 'tool', kind: 'tool_call', name: call.name, call_id: call.callId },
    ...call.jsonParts.map((text): MachineInput => ({ type: 'block.append', key: 'tool', delta: { kind: 'json_text', text } })),
    { type: 'block.close', key: 'tool' },
    end(ending),
  ]);
}

/** A completed text answer of `parts.length` deltas (seq 1 .. parts.length + 4). */
export function textStream(streamId: string, tenant: string, parts: readonly string[]): ContractEvent[] {
  return machineStream(streamId, tenant, [
    { type: 'block.open', key: 'text', kind: 'text' },
    ...parts.map((text): MachineInput => ({ type: 'block.append', key: 'text', delta: { kind: 'text', text } })),
    { type: 'block.close', key: 'text' },
    { type: 'finish', stop_reason: 'end_turn', provider_stop_reason: 'end_turn' },
  ]);
}

/** `count` short text deltas: `w1 `, `w2 `, ... */
export function words(count: number): string[] {
  return Array.from({ length: count }, (_, index) => `w${index + 1} `);
}
