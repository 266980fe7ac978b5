import type { ServerResponse } from 'node:http';
import type { StoredEvent } from './event-feed.js';

/**
 * Writes contract events to an HTTP response as SSE records (`id: <seq>`, `event: <type>`, `data: <json>`),
 * with a comment line as keep-alive while nothing happens, and waits for 'drain' when the client reads
 * slowly, so a slow client slows only its own feed.
 */
export class SseWriter {
  private keepAlive: NodeJS.Timeout | undefined;
  private corked = false;

  constructor(
    private readonly response: ServerResponse,
    private readonly keepAliveMs: number,
  ) {}

  /** Whether the status line and headers are out (after that, an error can only end or cut the response). */
  get opened(): boolean {
    return this.response.headersSent;
  }

  /** Sends the status line and headers now, so the client knows the stream exists; keep-alives start. */
  open(streamId: string): void {
    const response = this.response;
    this.keepAlive = setInterval(() => {
      if (!response.writableEnded) response.write(': keep-alive\n\n');
    }, this.keepAliveMs);
    this.keepAlive.unref();
    this.response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'x-stream-id': streamId,
    });
    this.response.flushHeaders();
    this.response.socket?.setNoDelay(true);
  }

  async write(event: StoredEvent): Promise<void> {
    if (this.response.writableEnded || this.response.destroyed) return;
    // Writes of one turn of the event loop leave in one segment: corked here, uncorked after the turn's
    // other events were handled (an uncork per write would still send one segment per event).
    if (!this.corked) {
      this.corked = true;
      this.response.cork();
      process.nextTick(() => {
        this.corked = false;
        this.response.uncork();
      });
    }
    const ok = this.response.write(`id: ${String(event.seq)}\nevent: ${event.type}\ndata: ${event.json}\n\n`);
    if (!ok) await new Promise<void>((resolve) => {
      const done = (): void => {
        this.response.off('drain', done);
        this.response.off('close', done);
        resolve();
      };
      this.response.once('drain', done);
      this.response.once('close', done);
    });
  }

  end(): void {
    clearInterval(this.keepAlive);
    if (!this.response.writableEnded) this.response.end();
  }

  /** Ends the response without the chunked terminator: the client sees an incomplete body, not an answer. */
  cut(): void {
    clearInterval(this.keepAlive);
    this.response.destroy();
  }
}
