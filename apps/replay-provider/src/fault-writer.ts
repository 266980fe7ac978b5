import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Frame } from './frame.js';
import type { Delivery } from './scenario.js';

/** How a delivery ended: the stream was ended cleanly, cut on purpose, or the client went away first. */
export type DeliveryOutcome = 'ended' | 'cut' | 'client_gone';

export interface DeliveryHooks {
  /** Called just before the writer closes the connection on purpose, so the close is not taken for a client abort. */
  readonly onCut: () => void;
  /** Called with each piece of body bytes as it is handed to the socket (the served-body log keeps them). */
  readonly onWrite?: (bytes: Buffer) => void;
}

/**
 * Writes frames to a response whose headers are already sent, injecting the faults of `delivery`.
 *
 * Every write waits for its callback (the bytes reached the kernel; Nagle is off on the socket) before the
 * next, so each write leaves as its own TCP segment and a client observes the chunk boundaries. With
 * `chunkBytes`, bytes go out in pieces of exactly that size, cutting through UTF-8 characters and CRLF
 * pairs alike; a shorter piece is written only where the stream pauses (a delay, a stall, the end), so a
 * pause never holds back bytes already produced.
 */
export async function deliver(
  response: ServerResponse,
  frames: Iterable<Frame>,
  delivery: Delivery,
  keepAlive: Buffer,
  signal: AbortSignal,
  hooks: DeliveryHooks,
): Promise<DeliveryOutcome> {
  const writer = new ChunkWriter(response, delivery, signal, hooks);
  try {
    if (await pause(delivery.firstByteDelayMs, writer, signal)) return 'cut';
    let sent = 0;
    for (const frame of frames) {
      if (delivery.stallAfterFrames !== null && sent >= delivery.stallAfterFrames) break;
      if (await pause(frame.delayMs + (sent > 0 ? delivery.frameDelayMs : 0), writer, signal)) return 'cut';
      if (await writer.push(frame.render())) return 'cut';
      sent += 1;
    }
    if (delivery.stallAfterFrames !== null) return await stall(writer, keepAlive, delivery.stallPingIntervalMs, signal);
    if (await writer.flush()) return 'cut';
    if (delivery.end === 'hang') {
      await untilAborted(signal);
      return 'client_gone';
    }
    // A body shorter than cut_after_bytes still ends without a clean end: the point of the option.
    if (delivery.cutAfterBytes !== null) return writer.cut();
    // end's callback may never run once the client is gone: the abort settles the wait instead.
    await Promise.race([new Promise<void>((resolve) => response.end(resolve)), untilAborted(signal)]);
    return response.writableFinished ? 'ended' : 'client_gone';
  } catch (error: unknown) {
    // A rejected sleep or write after the client left is the normal end of a delivery, not a failure.
    if (signal.aborted) return 'client_gone';
    throw error;
  }
}

/** Flushes what is produced, then waits; true when the flush reached the cut. */
async function pause(ms: number, writer: ChunkWriter, signal: AbortSignal): Promise<boolean> {
  if (ms <= 0) return false;
  if (await writer.flush()) return true;
  await sleep(ms, undefined, { signal });
  return false;
}

async function stall(writer: ChunkWriter, keepAlive: Buffer, intervalMs: number, signal: AbortSignal): Promise<DeliveryOutcome> {
  if (await writer.flush()) return 'cut';
  for (;;) {
    await sleep(intervalMs, undefined, { signal });
    if ((await writer.push(keepAlive)) || (await writer.flush())) return 'cut';
  }
}

function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else {
      signal.addEventListener(
        'abort',
        () => {
          resolve();
        },
        { once: true },
      );
    }
  });
}

/** Byte accounting: the carry of an incomplete chunk, and the cut-after-N-bytes budget. Push/flush return true once cut. */
class ChunkWriter {
  private carry: Buffer = Buffer.alloc(0);
  private written = 0;

  constructor(
    private readonly response: ServerResponse,
    private readonly delivery: Delivery,
    private readonly signal: AbortSignal,
    private readonly hooks: DeliveryHooks,
  ) {}

  async push(bytes: Buffer): Promise<boolean> {
    const size = this.delivery.chunkBytes;
    if (size === null) return this.write(bytes);
    this.carry = this.carry.length === 0 ? bytes : Buffer.concat([this.carry, bytes]);
    while (this.carry.length >= size) {
      const chunk = this.carry.subarray(0, size);
      this.carry = this.carry.subarray(size);
      if (await this.write(chunk)) return true;
    }
    return false;
  }

  async flush(): Promise<boolean> {
    if (this.carry.length === 0) return false;
    const rest = this.carry;
    this.carry = Buffer.alloc(0);
    return this.write(rest);
  }

  private async write(bytes: Buffer): Promise<boolean> {
    const budget = this.delivery.cutAfterBytes;
    if (budget === null || this.written + bytes.length < budget) {
      await this.send(bytes);
      return false;
    }
    const allowed = bytes.subarray(0, budget - this.written);
    if (allowed.length > 0) await this.send(allowed);
    this.cut();
    return true;
  }

  /** Closes the connection with no clean end (FIN after the written bytes, no terminating zero-length chunk). */
  cut(): 'cut' {
    this.hooks.onCut();
    this.response.socket?.destroySoon();
    return 'cut';
  }

  private send(bytes: Buffer): Promise<void> {
    this.written += bytes.length;
    this.hooks.onWrite?.(bytes);
    return new Promise((resolve, reject) => {
      if (this.signal.aborted) {
        reject(new Error('client gone'));
        return;
      }
      const onAbort = (): void => {
        reject(new Error('client gone'));
      };
      this.signal.addEventListener('abort', onAbort, { once: true });
      this.response.write(bytes, (error) => {
        this.signal.removeEventListener('abort', onAbort);
        if (error === null || error === undefined) resolve();
        else reject(error);
      });
    });
  }
}
