import { headers as createHeaders, type MsgHdrs } from '@nats-io/nats-core';

/** The start of every NATS header block. */
export const HEADER_BLOCK_START = 'NATS/1.0\r\n';

/**
 * `Name: value\r\n` lines for pairs whose values are not ours to trust (ids from configuration, trace
 * context, model names): a line break or a colon in a name would forge another header, so they are refused.
 */
export function headerLines(pairs: Readonly<Record<string, string>>): string {
  let lines = '';
  for (const name in pairs) {
    const value = pairs[name] ?? '';
    if (/[\r\n]/.test(value) || /[\r\n:]/.test(name)) throw new Error(`header ${name} has a line break or colon`);
    lines += `${name}: ${value}\r\n`;
  }
  return lines;
}

/** A whole header block for pairs: `NATS/1.0\r\n...\r\n`. */
export function headerBlock(pairs: Readonly<Record<string, string>>): string {
  return `${HEADER_BLOCK_START}${headerLines(pairs)}\r\n`;
}

/** The header map of a block, for APIs that take one (a JetStream publish adds its own headers to it). */
export function headersOfBlock(block: string): MsgHdrs {
  const map = createHeaders();
  for (const line of block.split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) map.append(line.slice(0, colon), line.slice(colon + 1).trim());
  }
  return map;
}
