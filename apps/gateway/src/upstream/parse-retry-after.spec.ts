import { parseRetryAfter } from './upstream-attempt.js';

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
