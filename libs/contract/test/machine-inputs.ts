// Machine inputs for example-based tests, and a driver that records what the machine emitted.
import {
  StreamMachine,
  type AppendBlockInput,
  type BlockKind,
  type CloseBlockInput,
  type ContractEvent,
  type DeltaKind,
  type FailInput,
  type FailureStatus,
  type FinishInput,
  type MachineInput,
  type OpenBlockInput,
  type ProviderMetadata,
  type StreamIdentity,
} from '../src/index.js';

export const IDENTITY: StreamIdentity = { stream_id: 'st_1', provider: 'anthropic', model: 'claude-test', tenant: 'acme' };

export const open = (key: string, kind: BlockKind = 'text', names: { name?: string; call_id?: string } = {}): OpenBlockInput => ({
  type: 'block.open',
  key,
  kind,
  ...names,
});

export const append = (key: string, text: string, kind: DeltaKind = 'text'): AppendBlockInput => ({
  type: 'block.append',
  key,
  delta: { kind, text },
});

export const close = (key: string, metadata?: ProviderMetadata): CloseBlockInput =>
  metadata === undefined ? { type: 'block.close', key } : { type: 'block.close', key, provider_metadata: metadata };

export const finish = (fields: Partial<Omit<FinishInput, 'type'>> = {}): FinishInput => ({
  type: 'finish',
  stop_reason: 'end_turn',
  provider_stop_reason: 'end_turn',
  ...fields,
});

export const fail = (status: FailureStatus = 'failed'): FailInput => ({
  type: 'fail',
  status,
  error:
    status === 'failed'
      ? { category: 'upstream_overloaded', retryable: true, provider_code: 'overloaded_error', message: 'Overloaded' }
      : { category: 'transport_interrupted', retryable: null, provider_code: null, message: 'connection closed' },
});

export const heartbeatInput: MachineInput = { type: 'heartbeat' };
export const warnInput: MachineInput = { type: 'warn', warning: { code: 'unknown_event', message: 'skipped citations_delta' } };

export interface Driven {
  readonly machine: StreamMachine;
  /** Every event emitted, stream.start included. */
  readonly events: ContractEvent[];
  /** What each input returned, in input order. */
  readonly outputs: ContractEvent[][];
}

/** Starts a machine at ts 1000 and applies the inputs at ts 1001, 1002... */
export function drive(inputs: readonly MachineInput[], identity: StreamIdentity = IDENTITY): Driven {
  const machine = new StreamMachine(identity);
  const events = machine.start(1000);
  const outputs = inputs.map((input, i) => machine.apply(input, 1001 + i));
  for (const output of outputs) events.push(...output);
  return { machine, events, outputs };
}

/** Applies more inputs to a driven machine, continuing its timestamps. */
export function applyMore({ machine, events, outputs }: Driven, inputs: readonly MachineInput[]): Driven {
  const more = inputs.map((input, i) => machine.apply(input, 2001 + outputs.length + i));
  for (const output of more) events.push(...output);
  return { machine, events, outputs: [...outputs, ...more] };
}
