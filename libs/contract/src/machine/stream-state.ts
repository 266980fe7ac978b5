/**
 * Stream states (the seed's diagram): `idle -> open -> receiving -> terminal`, where the terminal state is
 * one of `completed | failed | interrupted`. `open` means `stream.start` was emitted; `receiving` means at
 * least one block started.
 */
export type StreamState = 'idle' | 'open' | 'receiving' | 'completed' | 'failed' | 'interrupted';

/** Per-block states. A block is `new` until its `block.start`; the machine only stores started blocks. */
export type BlockState = 'open' | 'closed';

export function isTerminalState(state: StreamState): state is 'completed' | 'failed' | 'interrupted' {
  return state === 'completed' || state === 'failed' || state === 'interrupted';
}
