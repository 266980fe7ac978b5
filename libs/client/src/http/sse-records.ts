import { createParser, type EventSourceMessage } from 'eventsource-parser';

/**
 * The SSE records of a response body, as eventsource-parser reads them (comments such as the gateway's
 * keep-alive are skipped). Ends when the body ends; a broken connection rejects the iteration with the
 * network error. An incomplete last record is dropped: only records ended by a blank line are yielded.
 * Leaving the loop early cancels the body, which closes the connection.
 */
export async function* sseRecords(body: ReadableStream<Uint8Array>): AsyncGenerator<EventSourceMessage, void, undefined> {
  const pending: EventSourceMessage[] = [];
  const parser = createParser({
    onEvent: (record) => {
      pending.push(record);
    },
  });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let finished = false;
  try {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) {
        finished = true;
        return;
      }
      parser.feed(decoder.decode(chunk.value, { stream: true }));
      for (let record = pending.shift(); record !== undefined; record = pending.shift()) yield record;
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
