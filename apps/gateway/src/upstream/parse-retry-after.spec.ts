import { parseRetryAfter, redactSecret } from './upstream-attempt.js';

describe('redactSecret', () => {
  const key = 'sk-proj-0123456789abcdef';

  it('replaces every occurrence of the key', () => {
    expect(redactSecret(`{"error":{"message":"Incorrect API key provided: ${key}. Also ${key}"}}`, key)).toBe(
      '{"error":{"message":"Incorrect API key provided: [redacted]. Also [redacted]"}}',
    );
  });

  it('returns the very same text when the key is not in it (frames stay byte-exact)', () => {
    const text = 'data: {"choices":[]}\n\n';
    expect(redactSecret(text, key)).toBe(text);
  });

  it.each(['', 'short'])('ignores a configured key shorter than 8 characters (%j): it would match ordinary text', (secret) => {
    expect(redactSecret('a short answer', secret)).toBe('a short answer');
  });
});

describe('parseRetryAfter', () => {
  it.each([
    ['2', 2_000],
    [' 0 ', 0],
    [undefined, undefined],
    ['', undefined],
    ['soon', undefined],
    [['1', '2'], undefined],
  ])('reads %j as %j ms', (value, expected) => {
    expect(parseRetryAfter(value)).toBe(expected);
  });

  it('reads an HTTP date as the time left until it, never negative', () => {
    const inTenSeconds = new Date(Date.now() + 10_000).toUTCString();
    expect(parseRetryAfter(inTenSeconds)).toBeGreaterThan(8_000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT')).toBe(0);
  });
});
