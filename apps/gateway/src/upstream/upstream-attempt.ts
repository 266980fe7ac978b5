import type { IncomingMessage } from 'node:http';
import { createSseDecoder, type SseDecoder, type SseFrame, type UnstampedRecord } from '@llm-stream/adapters';
import { assertNever, type AttemptEndReason } from '@llm-stream/contract';
import { callUpstream, type UpstreamCall } from './upstream-call.js';
import type { UpstreamPlan } from './upstream-plan.js';

export interface AttemptSettings {
  readonly connectTimeoutMs: number;
  readonly idleTimeoutMs: number;
  readonly progressTimeoutMs: number;
  readonly maxFrameBytes: number;
  /** An error response's body is kept up to this size in the trace. */
  readonly maxErrorBodyBytes: number;
}

/** How an attempt talks to the stream around it. */
export interface AttemptHooks {
  /** Stamps, publishes and normalizes one trace record. */
  record(record: UnstampedRecord, parsed?: SseFrame): void;
  /**
   * Where the stream stands: `open`, `ended` (a terminal event: the rest of the body is still read and
   * recorded, and the connection reused), or `retry_pending` (a retryable failure waits for the end of the
   * attempt: the connection is closed at once).
   */
  standing(): StreamStanding;
  /** Receive time of the last record that made progress, as the local session sees it. */
  lastProgressTs(): number | undefined;
}

/** What {@link AttemptHooks.standing} answers. */
export type StreamStanding = 'open' | 'ended' | 'retry_pending';

/** What the attempt learned that decides the wait before the next one. */
export interface AttemptSummary {
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;
}

/**
 * How long the body may go on after the stream's terminal event before the connection is closed. Providers
 * end the response right after their last event (the terminating chunk follows it, usually in the same read);
 * read to its end, the connection goes back to the agent's pool and the next stream skips a TCP and TLS
 * handshake (one or two round trips to the provider before its first byte). Closed at the terminal event, as
 * before, every stream opened a connection of its own.
 */
export const BODY_END_GRACE_MS = 1_000;

/**
 * One upstream request, recorded as it happens: `upstream.response`, one `frame` per SSE record (a trailing
 * partial record too — bytes received before a cut are never lost), then exactly one `attempt.end`. It
 * enforces the transport idle timeout (no bytes) and the progress timeout (no block or terminal input: pings
 * and comments do not count). Once the stream has ended it reads and records the rest of the body and ends
 * `eof` with the response (the connection is reused), or closes the connection itself after
 * {@link BODY_END_GRACE_MS} (`aborted`); a retryable failure closes it at once (the next attempt starts).
 */
export class UpstreamAttempt {
  private call: UpstreamCall | undefined;
  private ended = false;
  /** The stream ended: the rest of the body is read until it ends or the grace runs out. */
  private draining = false;
  private graceTimer: NodeJS.Timeout | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private progressTimer: NodeJS.Timeout | undefined;
  private progressSeen: number | undefined;
  private readonly decoder: SseDecoder;
  private errorBody: Buffer[] | undefined;
  private errorBodyBytes = 0;
  private status: number | undefined;
  private retryAfterMs: number | undefined;
  private responseHeaders: IncomingMessage['headers'] = {};
  private resolve: ((summary: AttemptSummary) => void) | undefined;

  constructor(
    private readonly attempt: number,
    private readonly plan: UpstreamPlan,
    private readonly settings: AttemptSettings,
    private readonly hooks: AttemptHooks,
  ) {
    this.decoder = createSseDecoder({ maxFrameBytes: settings.maxFrameBytes });
  }

  run(): Promise<AttemptSummary> {
    return new Promise((resolve) => {
      this.resolve = resolve;
      this.progressSeen = this.hooks.lastProgressTs();
      this.armProgressTimer();
      this.call = callUpstream(this.plan, this.settings.connectTimeoutMs, {
        response: (status, headers) => {
          this.onResponse(status, headers);
        },
        data: (chunk) => {
          this.onData(chunk);
        },
        end: () => {
          this.onEnd();
        },
        failed: (phase, detail) => {
          this.onFailed(phase, detail);
        },
      });
    });
  }

  /** Ends the attempt from outside (a cancel, a shutdown): closes the connection and records why. */
  stop(reason: 'cancelled' | 'aborted', detail: string): void {
    this.finish(reason, detail);
  }

  private onResponse(status: number, headers: IncomingMessage['headers']): void {
    this.status = status;
    this.responseHeaders = headers;
    this.retryAfterMs = parseRetryAfter(headers['retry-after']);
    this.armIdleTimer();
    if (status >= 400) {
      this.errorBody = [];
      return;
    }
    this.hooks.record({ kind: 'upstream.response', attempt: this.attempt, status, ...this.responseFields(headers) });
  }

  private onData(chunk: Buffer): void {
    if (!this.draining) this.armIdleTimer();
    if (this.errorBody) {
      const room = this.settings.maxErrorBodyBytes - this.errorBodyBytes;
      if (room > 0) this.errorBody.push(chunk.subarray(0, room));
      this.errorBodyBytes += Math.min(room, chunk.length);
      return;
    }
    for (const frame of this.decoder.push(chunk)) this.recordFrame(frame);
    const error = this.decoder.error;
    if (error) {
      this.finish('frame_too_large', `${String(error.bytes)} bytes > ${String(error.limit)}`);
      return;
    }
    this.afterRecords();
  }

  private onEnd(): void {
    if (this.errorBody) {
      this.recordErrorResponse();
    } else {
      for (const frame of this.decoder.end()) this.recordFrame(frame);
    }
    this.finish('eof');
  }

  private onFailed(phase: 'connect' | 'transport', detail: string): void {
    if (this.errorBody) this.recordErrorResponse();
    else if (phase === 'transport') for (const frame of this.decoder.end()) this.recordFrame(frame);
    this.finish(phase === 'connect' ? 'connect_error' : 'transport_error', detail);
  }

  private recordErrorResponse(): void {
    const body = Buffer.concat(this.errorBody ?? []).toString('utf8');
    this.errorBody = undefined;
    this.hooks.record({
      kind: 'upstream.response',
      attempt: this.attempt,
      status: this.status ?? 0,
      ...this.responseFields(this.responseHeaders),
      body,
    });
  }

  /** Recorded as received: the stream's record hook redacts secrets (redactRecord) before anything leaves. */
  private recordFrame(frame: SseFrame): void {
    this.hooks.record(
      frame.partial ? { kind: 'frame', attempt: this.attempt, text: frame.text, partial: true } : { kind: 'frame', attempt: this.attempt, text: frame.text },
      frame,
    );
  }

  /** After new records: stop reading a settled stream, and count progress for the progress timeout. */
  private afterRecords(): void {
    if (this.draining) return;
    const standing = this.hooks.standing();
    switch (standing) {
      case 'open':
        break;
      case 'ended':
        this.drain();
        return;
      case 'retry_pending':
        this.finish('aborted', SETTLED_BEFORE_CLOSE);
        return;
      default:
        assertNever(standing, 'stream standing');
    }
    const progress = this.hooks.lastProgressTs();
    if (progress !== this.progressSeen) {
      this.progressSeen = progress;
      this.armProgressTimer();
    }
  }

  private responseFields(headers: IncomingMessage['headers']): { content_type?: string; retry_after_ms?: number; request_id?: string } {
    const contentType = headers['content-type'];
    const requestId = headers['x-request-id'] ?? headers['request-id'];
    return {
      ...(typeof contentType === 'string' && { content_type: contentType }),
      ...(this.retryAfterMs !== undefined && { retry_after_ms: this.retryAfterMs }),
      ...(typeof requestId === 'string' && { request_id: requestId }),
    };
  }

  /**
   * Reads the body to its end, recording it as before (the session ignores what follows the end; the trace
   * stays the bytes received, so `eof` still means the whole body is in it), and the connection is reused; or
   * closes it after the grace. The idle and progress timeouts no longer apply: the grace bounds the wait.
   */
  private drain(): void {
    this.draining = true;
    clearTimeout(this.idleTimer);
    clearTimeout(this.progressTimer);
    this.graceTimer = setTimeout(() => {
      this.finish('aborted', SETTLED_BEFORE_CLOSE);
    }, BODY_END_GRACE_MS);
  }

  private armIdleTimer(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      this.finish('idle_timeout', `no bytes for ${String(this.settings.idleTimeoutMs)} ms`);
    }, this.settings.idleTimeoutMs);
  }

  private armProgressTimer(): void {
    clearTimeout(this.progressTimer);
    this.progressTimer = setTimeout(() => {
      this.finish('progress_timeout', `no progress for ${String(this.settings.progressTimeoutMs)} ms`);
    }, this.settings.progressTimeoutMs);
  }

  private finish(reason: AttemptEndReason, detail?: string): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.idleTimer);
    clearTimeout(this.progressTimer);
    clearTimeout(this.graceTimer);
    if (reason !== 'eof' && reason !== 'connect_error' && reason !== 'transport_error') this.call?.abort();
    this.hooks.record({ kind: 'attempt.end', attempt: this.attempt, reason, ...(detail !== undefined && { detail }) });
    this.resolve?.({ status: this.status, retryAfterMs: this.retryAfterMs });
  }
}

const SETTLED_BEFORE_CLOSE = 'the stream settled before the upstream closed';

/** Retry-After in seconds or as an HTTP date, in ms; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined): number | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
