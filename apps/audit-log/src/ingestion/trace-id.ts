import { HEADERS, type HeaderLookup } from '@llm-stream/contract';

const TRACEPARENT = /^[\da-f]{2}-([\da-f]{32})-[\da-f]{16}-[\da-f]{2}$/;
const INVALID_TRACE_ID = '0'.repeat(32);

/** The trace id of a message's W3C `traceparent` header; null when absent, malformed or all zeros. */
export function traceIdOf(header: HeaderLookup): string | null {
  const value = header(HEADERS.traceparent);
  const traceId = value === undefined ? undefined : TRACEPARENT.exec(value.trim().toLowerCase())?.[1];
  return traceId === undefined || traceId === INVALID_TRACE_ID ? null : traceId;
}
