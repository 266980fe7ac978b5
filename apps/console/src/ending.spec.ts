import type { ContractEvent } from '@llm-stream/contract';
import { endingSentence } from './ending.js';

const start: ContractEvent = { type: 'stream.start', stream_id: 'st_1', seq: 1, ts: 10, provider: 'anthropic', model: 'm', tenant: 'acme' };

describe('endingSentence', () => {
  it('names the terminal signal, the error category and whether a retry may help', () => {
    const error = (retryable: boolean | null): ContractEvent => ({
      type: 'stream.error',
      stream_id: 'st_1',
      seq: 2,
      ts: 11,
      status: retryable === null ? 'interrupted' : 'failed',
      error: { category: retryable === null ? 'transport_interrupted' : 'rate_limited', retryable, provider_code: retryable === null ? null : '429', message: 'the message' },
    });
    expect(endingSentence('failed', [start, error(true)])).toBe('Failed: stream.error, category rate_limited, provider code 429, retryable — the message');
    expect(endingSentence('failed', [start, error(false)])).toContain('not retryable');
    expect(endingSentence('interrupted', [start, error(null)])).toBe('Interrupted: stream.error, category transport_interrupted, nobody can know whether a retry succeeds — the message');
  });

  it('says when no terminal event arrived', () => {
    expect(endingSentence('running', [start])).toMatch(/^Still running: no terminal event/);
    expect(endingSentence('interrupted', [start])).toBe('Ended interrupted without a stored terminal event.');
  });

  it('gives the stop reason of a completed stream, normalized and as the provider said it', () => {
    const done = { type: 'stream.done', stream_id: 'st_1', seq: 2, ts: 12, stop_reason: 'end_turn', provider_stop_reason: 'end_turn' } as unknown as ContractEvent;
    expect(endingSentence('completed', [start, done])).toBe('Completed: stream.done with stop reason end_turn (the provider said "end_turn").');
  });
});
