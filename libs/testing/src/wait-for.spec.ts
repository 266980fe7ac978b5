import { waitFor, WaitForTimeoutError } from './wait-for.js';

describe('waitFor', () => {
  it('resolves with the first truthy value of the probe', async () => {
    let calls = 0;

    const value = await waitFor(() => {
      calls++;
      return calls >= 3 ? { calls } : undefined;
    }, { intervalMs: 1 });

    expect(value).toEqual({ calls: 3 });
  });

  it('treats a throwing or rejecting probe as "not yet"', async () => {
    let calls = 0;

    const value = await waitFor(async () => {
      calls++;
      if (calls === 1) {
        throw new Error('sync-style failure');
      }
      if (calls === 2) {
        return Promise.reject(new Error('async failure'));
      }
      return 'ready';
    }, { intervalMs: 1 });

    expect(value).toBe('ready');
    expect(calls).toBe(3);
  });

  it('times out with a message naming the description and the last error', async () => {
    const attempt = waitFor(
      () => {
        throw new Error('connection refused');
      },
      { timeoutMs: 100, intervalMs: 10, description: 'the gateway to listen' },
    );

    await expect(attempt).rejects.toThrow(WaitForTimeoutError);
    await expect(attempt).rejects.toThrow(
      /^Timed out after 100 ms waiting for the gateway to listen; the last probe threw: connection refused$/,
    );
    await expect(attempt).rejects.toMatchObject({ code: 'WAIT_FOR_TIMEOUT', cause: new Error('connection refused') });
  });

  it('names the last falsy result when the probe never threw', async () => {
    await expect(waitFor(() => 0, { timeoutMs: 30, intervalMs: 5, description: 'a non-zero count' })).rejects.toThrow(
      /waiting for a non-zero count; the last probe returned 0$/,
    );
  });

  it('gives up on a probe that never settles', async () => {
    await expect(
      waitFor(() => new Promise<boolean>(() => undefined), { timeoutMs: 50, description: 'a hanging probe' }),
    ).rejects.toThrow(/waiting for a hanging probe; the last probe was still pending$/);
  });

  it('rejects with the abort reason, whether the signal aborted before or during the wait', async () => {
    const before = new AbortController();
    before.abort(new Error('server exited'));
    const during = new AbortController();
    const pending = waitFor(() => false, { timeoutMs: 60_000, intervalMs: 5, signal: during.signal });

    during.abort(new Error('gave up'));

    await expect(waitFor(() => false, { timeoutMs: 60_000, signal: before.signal })).rejects.toThrow('server exited');
    await expect(pending).rejects.toThrow('gave up');
  });
});
