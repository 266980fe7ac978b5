import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';

const PADDING = ' lorem ipsum dolor sit amet, consectetur adipiscing elit';

/**
 * The text of one synthetic delta: `t=<epoch ms, 3 decimals>;` taken at send time, padded with ASCII up to
 * `minBytes`. A benchmark subtracts the stamp from its own receive time to measure the latency it adds.
 */
export function stampedText(minBytes: number): string {
  const stamp = `t=${(performance.timeOrigin + performance.now()).toFixed(3)};`;
  let text = stamp;
  while (text.length < minBytes) text += PADDING.slice(0, minBytes - text.length);
  return text;
}

/** A plausible token count for generated text (about 4 bytes per token); exact counts are not the point. */
export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(Buffer.byteLength(text) / 4));
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Random ids in the providers' observed formats (`chatcmpl-…`, `msg_01…`); never meant to be unique across runs. */
export function randomAlphanumeric(length: number): string {
  const bytes = randomBytes(length);
  let text = '';
  for (const byte of bytes) text += ALPHANUMERIC[byte % ALPHANUMERIC.length] ?? 'x';
  return text;
}

export function randomHex(length: number): string {
  return randomBytes(Math.ceil(length / 2))
    .toString('hex')
    .slice(0, length);
}

/** OpenAI's `obfuscation` field: random padding of varying length that hides the delta's size. */
export function obfuscation(): string {
  return randomAlphanumeric(3 + (randomBytes(1)[0] ?? 0) % 13);
}

/** `data: <json>\n\n`: OpenAI Chat Completions records. */
export function dataRecord(payload: unknown): Buffer {
  return Buffer.from(`data: ${JSON.stringify(payload)}\n\n`);
}

/** `event: <name>\ndata: <json>\n\n`: OpenAI Responses and Anthropic records, the event name equal to `type`. */
export function eventRecord(name: string, payload: unknown): Buffer {
  return Buffer.from(`event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`);
}
