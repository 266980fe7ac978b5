import type { MsgHdrs } from '@nats-io/nats-core';
import type { HeaderLookup } from '@llm-stream/contract';
import { headerValues } from './header-values.js';

/** The parts of nats.js 3.4's message classes the fast path reads (a core `MsgImpl`, or a `JsMsgImpl` around one). */
interface RawMessage {
  readonly _rdata?: unknown;
  readonly _msg?: { readonly hdr?: unknown };
  readonly _headers?: unknown;
  readonly msg?: RawMessage;
}

const decoder = new TextDecoder();

/**
 * The header block of a received message, parsed once into a lookup by exact name (first value wins), as
 * `MsgHdrs.get` with its default exact match reads it. On the hot path this replaces nats.js's own decoding,
 * which canonicalizes, validates and rescans every key per header line. It reads the raw bytes nats.js keeps
 * (`_rdata` up to `_msg.hdr`); a message of another shape (another nats.js version, a test double) falls back to
 * its `headers` (a test pins the fast path to the installed version).
 */
export function messageHeaderLookup(message: { readonly headers?: MsgHdrs | undefined }): HeaderLookup {
  const block = rawHeaderBlock(message as unknown as RawMessage);
  if (block === undefined) return headerValues(message.headers);
  const pairs = parseHeaderBlock(block);
  return (name) => pairs.get(name);
}

/** Whether {@link messageHeaderLookup} reads this message's raw bytes (false: it falls back to `headers`). */
export function readsRawHeaders(message: { readonly headers?: MsgHdrs | undefined }): boolean {
  return rawHeaderBlock(message as unknown as RawMessage) !== undefined;
}

function rawHeaderBlock(message: RawMessage): string | undefined {
  const core = message.msg ?? message;
  const data = core._rdata;
  const end = core._msg?.hdr;
  if (!(data instanceof Uint8Array) || typeof end !== 'number' || end <= 0 || end > data.length) return undefined;
  return decoder.decode(data.subarray(0, end));
}

/** `NATS/1.0[ status]\r\nName: value\r\n...\r\n\r\n` into name -> first value (values trimmed, as nats.js does). */
export function parseHeaderBlock(block: string): Map<string, string> {
  const pairs = new Map<string, string>();
  let start = block.indexOf('\r\n');
  if (start < 0) return pairs;
  start += 2;
  while (start < block.length) {
    let end = block.indexOf('\r\n', start);
    if (end < 0) end = block.length;
    if (end > start) {
      const colon = block.indexOf(':', start);
      if (colon > start && colon < end) {
        const name = block.slice(start, colon);
        if (!pairs.has(name)) pairs.set(name, block.slice(colon + 1, end).trim());
      }
    }
    start = end + 2;
  }
  return pairs;
}
