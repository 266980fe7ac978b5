import { createHash } from 'node:crypto';

/** `hash-key <api-key>`: the SHA-256 hex digest the gateway's API key configuration stores. */
export function hashKeyCommand(key: string): number {
  process.stdout.write(`${createHash('sha256').update(key, 'utf8').digest('hex')}\n`);
  return 0;
}
