import { headers as createHeaders, type MsgHdrs } from '@nats-io/nats-core';
import type { HeaderLookup } from '@llm-stream/contract';

/** NATS headers from the plain header pairs the contract's codecs produce. */
export function toNatsHeaders(pairs: Readonly<Record<string, string>>): MsgHdrs {
  const headers = createHeaders();
  for (const [name, value] of Object.entries(pairs)) headers.set(name, value);
  return headers;
}

/** A lookup over a message's NATS headers (absent headers read as undefined). */
export function headerLookup(headers: MsgHdrs | undefined): HeaderLookup {
  return (name) => {
    if (!headers?.has(name)) return undefined;
    return headers.get(name);
  };
}
