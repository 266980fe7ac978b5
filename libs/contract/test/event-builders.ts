// Hand-made event lists for example-based tests: write the events without envelope, then number them.
import type { BlockKind, ContractEvent, DeltaKind, FailureStatus } from '../src/index.js';

export const STREAM_ID = 'st_1';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** An event without stream_id, seq and ts. */
export type Draft = DistributiveOmit<ContractEvent, 'stream_id' | 'seq' | 'ts'>;

/** Gives drafts the envelope of stream `st_1`: seq 1, 2, 3... and ts 1000, 1001... */
export function numbered(drafts: readonly Draft[], firstSeq = 1): ContractEvent[] {
  return drafts.map((draft, i): ContractEvent => ({ ...draft, stream_id: STREAM_ID, seq: firstSeq + i, ts: 1000 + i }));
}

export const ref = (index: number, kind: BlockKind = 'text', id = `${STREAM_ID}.b${index}`) => ({ id, index, kind });

export const start = (): Draft => ({ type: 'stream.start', provider: 'anthropic', model: 'claude-test', tenant: 'acme' });

export const blockStart = (index: number, kind: BlockKind = 'text', extra: { name?: string; call_id?: string; id?: string } = {}): Draft => {
  const { id, ...names } = extra;
  return {
    type: 'block.start',
    block: ref(index, kind, id),
    ...names,
    ...(kind === 'reasoning' ? { visibility: 'internal' as const } : {}),
  };
};

const DEFAULT_DELTA: Readonly<Record<BlockKind, DeltaKind>> = {
  text: 'text',
  refusal: 'text',
  reasoning: 'text',
  tool_call: 'json_text',
};

export const delta = (index: number, text: string, kind: BlockKind = 'text', deltaKind = DEFAULT_DELTA[kind], id?: string): Draft => ({
  type: 'block.delta',
  block: ref(index, kind, id),
  delta: { kind: deltaKind, text },
});

export const blockStop = (index: number, kind: BlockKind = 'text', id?: string): Draft => ({
  type: 'block.stop',
  block: ref(index, kind, id),
});

export const done = (): Draft => ({
  type: 'stream.done',
  status: 'completed',
  stop_reason: 'end_turn',
  provider_stop_reason: 'end_turn',
});

export const failure = (status: FailureStatus = 'failed'): Draft => ({
  type: 'stream.error',
  status,
  error:
    status === 'failed'
      ? { category: 'upstream_overloaded', retryable: true, provider_code: 'overloaded_error', message: 'Overloaded' }
      : { category: 'transport_interrupted', retryable: null, provider_code: null, message: 'connection closed' },
});

export const heartbeat = (): Draft => ({ type: 'stream.heartbeat' });

/** The seed's example: text, a tool call with fragmented JSON, more text. */
export function seedExample(): ContractEvent[] {
  return numbered([
    start(),
    blockStart(0),
    delta(0, 'Проверяю расписание.'),
    blockStop(0),
    blockStart(1, 'tool_call', { name: 'get_schedule', call_id: 'call_1' }),
    delta(1, '{"date":"2026-07-23"', 'tool_call'),
    delta(1, '}', 'tool_call'),
    blockStop(1, 'tool_call'),
    blockStart(2),
    delta(2, 'На сегодня доступно...'),
    blockStop(2),
    done(),
  ]);
}
