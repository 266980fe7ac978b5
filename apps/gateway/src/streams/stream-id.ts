import { randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * `st_` + a 26-character ULID (48-bit time in ms, then 80 random bits, Crockford base32): unique,
 * sortable by creation time, and a valid NATS subject token.
 */
export function newStreamId(now: number = Date.now()): string {
  let time = '';
  let rest = now;
  for (let i = 0; i < 10; i += 1) {
    time = (CROCKFORD[rest % 32] ?? '0') + time;
    rest = Math.floor(rest / 32);
  }
  const random = randomBytes(16);
  let tail = '';
  for (let i = 0; i < 16; i += 1) tail += CROCKFORD[(random[i] ?? 0) % 32] ?? '0';
  return `st_${time}${tail}`;
}
