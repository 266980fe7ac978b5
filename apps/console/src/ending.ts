import type { ContractEvent } from '@llm-stream/contract';

/**
 * Why a stream ended, in one sentence: its terminal signal (or that none arrived), the error category and
 * whether retrying may help. Pure: from the stored events and the stream's status.
 */
export function endingSentence(status: 'running' | 'completed' | 'failed' | 'interrupted', events: readonly ContractEvent[]): string {
  const terminal = events.find((event) => event.type === 'stream.done' || event.type === 'stream.error');
  if (terminal === undefined) {
    return status === 'running' ? 'Still running: no terminal event (stream.done or stream.error) has been stored yet.' : `Ended ${status} without a stored terminal event.`;
  }
  if (terminal.type === 'stream.done') {
    const provider = terminal.provider_stop_reason === null ? 'the provider sent no stop reason' : `the provider said "${terminal.provider_stop_reason}"`;
    return `Completed: stream.done with stop reason ${terminal.stop_reason} (${provider}).`;
  }
  const { error } = terminal;
  const retry = error.retryable === null ? 'nobody can know whether a retry succeeds' : error.retryable ? 'retryable' : 'not retryable';
  const code = error.provider_code === null ? '' : `, provider code ${error.provider_code}`;
  return `${terminal.status === 'failed' ? 'Failed' : 'Interrupted'}: stream.error, category ${error.category}${code}, ${retry} — ${error.message}`;
}
