import { createSseParser, type SseEvent } from './sse-parser.js';

/** What the SSE readers consume: a fetch Response, or any stream of bytes (e.g. a node:http IncomingMessage). */
export type SseSource = Response | AsyncIterable<Uint8Array>;

/** Options of {@link collectSse}. */
export interface CollectSseOptions {
  /** Stop reading (and cancel the body) after the first event for which this returns true; that event is included. */
  readonly until?: (event: SseEvent) => boolean;
  /** Reject when the stream has neither ended nor satisfied `until` by then; default 10 000 ms. */
  readonly timeoutMs?: number;
}

/** {@link collectSse} ran out of time; `events` holds what arrived before. */
export class SseTimeoutError extends Error {
  readonly code = 'SSE_TIMEOUT';
  override readonly name = 'SseTimeoutError';

  constructor(
    message: string,
    readonly events: readonly SseEvent[],
  ) {
    super(message);
  }
}

interface ByteStream {
  next(): Promise<IteratorResult<Uint8Array, undefined>>;
  /** Stops the source: a read in progress then ends (a Response body), so no reader is left hanging. */
  cancel(): void;
}

function isResponse(source: SseSource): source is Response {
  return !(Symbol.asyncIterator in source) && 'body' in source;
}

function openByteStream(source: SseSource): ByteStream {
  if (isResponse(source)) {
    const body = source.body;
    if (body === null) {
      return { next: () => Promise.resolve({ done: true, value: undefined }), cancel: () => undefined };
    }
    // The fetch typings leave the body's chunk type open; a Response body yields Uint8Array chunks.
    const reader: ReadableStreamDefaultReader<Uint8Array> = body.getReader();
    return {
      next: async () => {
        const result = await reader.read();
        return result.done ? { done: true, value: undefined } : { done: false, value: result.value };
      },
      cancel: () => {
        reader.cancel().catch(() => undefined);
      },
    };
  }
  const iterator = source[Symbol.asyncIterator]();
  return {
    next: () => iterator.next(),
    cancel: () => {
      iterator.return?.().catch(() => undefined);
    },
  };
}

/** Bytes in, events out; a UTF-8 character split across chunks stays whole (TextDecoder in stream mode). */
function createSseDecoder(): { decode(bytes: Uint8Array): SseEvent[]; end(): SseEvent[] } {
  const decoder = new TextDecoder('utf-8');
  const parser = createSseParser();
  return {
    decode: (bytes) => parser.feed(decoder.decode(bytes, { stream: true })),
    end: () => parser.feed(decoder.decode()),
  };
}

/**
 * Reads the events of an SSE body as they arrive. Exact (see {@link createSseParser}): CRLF, LF and CR line
 * ends, several data lines per event, comments ignored, an unterminated last record dropped. Breaking out of the
 * loop cancels the body.
 */
export async function* readSseStream(source: SseSource): AsyncGenerator<SseEvent, void, undefined> {
  const bytes = openByteStream(source);
  const decoder = createSseDecoder();
  let finished = false;
  try {
    for (;;) {
      const chunk = await bytes.next();
      if (chunk.done === true) {
        finished = true;
        yield* decoder.end();
        return;
      }
      yield* decoder.decode(chunk.value);
    }
  } finally {
    if (!finished) {
      bytes.cancel();
    }
  }
}

/**
 * Collects the events of an SSE body until it ends or `until` accepts one, and resolves with them (also when the
 * stream ended before `until` matched: the test's assertion says what was missing). Rejects with an
 * {@link SseTimeoutError} after `timeoutMs` and cancels the body.
 */
export async function collectSse(source: SseSource, options: CollectSseOptions = {}): Promise<SseEvent[]> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const bytes = openByteStream(source);
  const decoder = createSseDecoder();
  const events: SseEvent[] = [];
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => {
      resolve('timeout');
    }, timeoutMs);
  });
  // True once `until` matched: the caller has what it waited for.
  const take = (batch: readonly SseEvent[]): boolean => {
    for (const event of batch) {
      events.push(event);
      if (options.until?.(event) === true) {
        return true;
      }
    }
    return false;
  };
  try {
    for (;;) {
      const chunk = await Promise.race([bytes.next(), timedOut]);
      if (chunk === 'timeout') {
        bytes.cancel();
        const last = events.slice(-5).map((event) => JSON.stringify(event));
        throw new SseTimeoutError(
          `SSE stream neither ended nor matched within ${timeoutMs} ms; ${events.length} events received, last: [${last.join(', ')}]`,
          events,
        );
      }
      if (chunk.done === true) {
        take(decoder.end());
        return events;
      }
      if (take(decoder.decode(chunk.value))) {
        bytes.cancel();
        return events;
      }
    }
  } finally {
    clearTimeout(timer);
  }
}
