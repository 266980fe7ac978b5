import type { NatsConnection } from '@nats-io/nats-core';
import { EncodedHeaders } from '../encoded-headers.js';

interface Deferred {
  readonly nc: NatsConnection;
  readonly subject: string;
  readonly data: string;
  readonly headerBlock: string;
  readonly reply: string;
}

/**
 * Core publishes wait for the end of the current turn of the event loop and then go out together. nats.js
 * writes its buffer to the socket in a microtask; a consumer that handles the messages of one socket read in
 * an async loop interleaves with that microtask and writes one publish per syscall. Deferring to
 * `setImmediate` (which runs after every pending microtask, right after the I/O that caused them) turns a
 * burst into one write, at a cost far below a millisecond. Order is kept: one queue per process.
 */
const deferred: Deferred[] = [];
let scheduled = false;

export function deferPublish(publish: Deferred): void {
  deferred.push(publish);
  if (scheduled) return;
  scheduled = true;
  setImmediate(flushDeferredPublishes);
}

function flushDeferredPublishes(): void {
  scheduled = false;
  const batch = deferred.splice(0, deferred.length);
  for (const { nc, subject, data, headerBlock, reply } of batch) {
    if (nc.isClosed()) continue;
    nc.publish(subject, data, { headers: new EncodedHeaders(headerBlock), reply });
  }
}
