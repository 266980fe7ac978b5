import type { MsgHdrs } from '@nats-io/nats-core';
import type { HeaderLookup } from '@llm-stream/contract';

/**
 * A lookup over a message's headers that reads them once: the first value of each name (exact match, as
 * `MsgHdrs.get`), in a Map. nats.js answers each `has`/`get` by listing and filtering every header name, and a
 * raw trace record reads five of its eight or so headers: per message, that was a large share of ingestion.
 */
export function headerValues(headers: MsgHdrs | undefined): HeaderLookup {
  if (headers === undefined) return () => undefined;
  const values = new Map<string, string>();
  for (const [name, all] of headers) {
    const [first] = all;
    if (first !== undefined && !values.has(name)) values.set(name, first);
  }
  return (name) => values.get(name);
}
