import { Assembler, isTerminalEvent, type ContractEvent } from '@llm-stream/contract';
import { streamOutcome, type StreamOutcome } from '../stream-outcome.js';
import { decodeSseEvent } from './decode-sse-event.js';
import { EventOrderCheck } from './event-order-check.js';
import { GatewayError } from './gateway-error.js';
import type { GatewayHttp } from './gateway-http.js';
import { gatewayFailure, isEventStream, isTransient } from './gateway-response.js';
import { HttpStreamError } from './http-stream-error.js';
import { resumeDelayMs, sleep, type ResumePolicy } from './resume-backoff.js';
import { sseRecords } from './sse-records.js';

/** A stream's open response: the one that created it, or the first resume. */
export interface OpenedStream {
  readonly streamId: string;
  readonly response: Response & { body: ReadableStream<Uint8Array> };
}

/** What an {@link HttpEventStream} counted. */
export interface HttpStreamStats {
  /** Events delivered to the caller. */
  readonly delivered: number;
  /** Responses read (the first one and every resume). */
  readonly connections: number;
  /** Resume attempts that failed (the gateway unreachable or busy). */
  readonly failedResumes: number;
  /** Events a resume repeated, dropped. */
  readonly duplicates: number;
}

export interface HttpEventStreamSettings {
  readonly http: GatewayHttp;
  readonly opened: Promise<OpenedStream>;
  readonly afterSeq: number;
  readonly contiguous: boolean;
  readonly resume: ResumePolicy;
  readonly signal: AbortSignal | undefined;
}

/**
 * One stream read from the gateway: its contract events once each and in order, resumed with
 * `Last-Event-ID` when the connection breaks, ending after its terminal event. Iterate it once; or call
 * {@link result} for the assembled outcome.
 */
export class HttpEventStream implements AsyncIterable<ContractEvent> {
  /** The stream id, once the gateway answered (rejects with the error the stream failed with before it). */
  readonly streamId: Promise<string>;
  private readonly order: EventOrderCheck;
  private readonly assembler = new Assembler();
  private iterated = false;
  private readonly finished: Promise<void>;
  private settle: { resolve: () => void; reject: (error: unknown) => void } | undefined;
  private counts = { delivered: 0, connections: 0, failedResumes: 0, duplicates: 0 };

  constructor(private readonly settings: HttpEventStreamSettings) {
    this.streamId = settings.opened.then((opened) => opened.streamId);
    // The caller may never look at these: their rejection is also the iteration's.
    this.streamId.catch(() => undefined);
    this.finished = new Promise<void>((resolve, reject) => {
      this.settle = { resolve, reject };
    });
    this.finished.catch(() => undefined);
    this.order = new EventOrderCheck({ afterSeq: settings.afterSeq, contiguous: settings.contiguous });
  }

  get stats(): HttpStreamStats {
    return { ...this.counts };
  }

  /** The seq of the last event delivered (what a resume sends as `Last-Event-ID`). */
  get lastSeq(): number {
    return this.order.lastSeq;
  }

  [Symbol.asyncIterator](): AsyncIterator<ContractEvent> {
    if (this.iterated) throw new HttpStreamError('already_iterated', 'an HttpEventStream is iterated once (result() after the loop gives its outcome)');
    this.iterated = true;
    return this.events();
  }

  /**
   * The stream assembled by the contract's `Assembler`: reads it to its end unless it is being iterated,
   * else waits for that iteration to end. Tool calls are executable only when the stream completed; a
   * stream whose iteration was left early is `open`.
   */
  async result(): Promise<StreamOutcome> {
    if (this.iterated) await this.finished;
    else for await (const _ of this);
    return streamOutcome(await this.streamId, this.assembler.result());
  }

  /**
   * Asks the gateway to cancel the stream (DELETE): its upstream is aborted and the stream ends `interrupted`
   * (`client_cancelled`), which the iteration then delivers. `already_ended` when it had ended.
   */
  async cancel(): Promise<'cancelling' | 'already_ended'> {
    const response = await this.settings.http.cancel(await this.streamId, this.settings.signal);
    if (response.status === 202) {
      await response.body?.cancel();
      return 'cancelling';
    }
    const failure = await gatewayFailure(response);
    if (failure instanceof GatewayError && failure.code === 'already_ended') return 'already_ended';
    throw failure;
  }

  private async *events(): AsyncGenerator<ContractEvent, void, undefined> {
    try {
      const { streamId, response } = await this.settings.opened;
      let current: OpenedStream['response'] | undefined = response;
      let failures = 0;
      let lastFailure: unknown;
      for (;;) {
        if (current === undefined) {
          failures += 1;
          if (failures > this.settings.resume.maxAttempts)
            throw new HttpStreamError('resume_exhausted', `${streamId}: ${failures - 1} resume attempts failed after seq ${this.lastSeq}`, { cause: lastFailure });
          const resumed = await this.resume(streamId, failures, lastFailure);
          if (!resumed.ok) {
            this.counts.failedResumes += 1;
            lastFailure = resumed.error;
            continue;
          }
          current = resumed.response;
        }
        this.counts.connections += 1;
        try {
          for await (const event of this.read(streamId, current)) {
            failures = 0;
            yield event;
            if (isTerminalEvent(event)) return;
          }
          lastFailure = new Error('the response ended before the stream\'s terminal event');
        } catch (error) {
          if (error instanceof HttpStreamError) throw error;
          if (this.settings.signal?.aborted === true) throw new HttpStreamError('aborted', 'the stream was aborted', { cause: this.settings.signal.reason });
          lastFailure = error;
        }
        current = undefined;
      }
    } catch (error) {
      this.settle?.reject(error);
      throw error;
    } finally {
      this.settle?.resolve();
    }
  }

  /** The events of one response not delivered before, checked; a broken connection rejects with the network error. */
  private async *read(streamId: string, response: OpenedStream['response']): AsyncGenerator<ContractEvent, void, undefined> {
    for await (const record of sseRecords(response.body)) {
      const decoded = decodeSseEvent(record, streamId);
      if (!decoded.ok) throw new HttpStreamError('invalid_event', `${streamId}: ${decoded.error}`);
      const verdict = this.order.accept(decoded.value);
      switch (verdict.kind) {
        case 'duplicate':
          this.counts.duplicates += 1;
          continue;
        case 'gap':
          throw new HttpStreamError('seq_gap', `${streamId}: ${verdict.message}`);
        case 'deliver':
          break;
      }
      this.counts.delivered += 1;
      this.assembler.push(decoded.value);
      yield decoded.value;
    }
  }

  /** One resume attempt after its backoff: the response, or the transient failure to retry after. */
  private async resume(
    streamId: string,
    attempt: number,
    lastFailure: unknown,
  ): Promise<{ ok: true; response: OpenedStream['response'] } | { ok: false; error: unknown }> {
    const { signal } = this.settings;
    const retryAfter = lastFailure instanceof GatewayError ? lastFailure.retryAfterSeconds : undefined;
    try {
      await sleep(resumeDelayMs(this.settings.resume, attempt, Math.random(), retryAfter), signal);
    } catch (error) {
      throw new HttpStreamError('aborted', 'the stream was aborted', { cause: error });
    }
    let response: Response;
    try {
      response = await this.settings.http.events(streamId, this.lastSeq, signal);
    } catch (error) {
      if (error instanceof HttpStreamError && error.code === 'connection_failed') return { ok: false, error };
      throw error;
    }
    if (isEventStream(response)) return { ok: true, response };
    const failure = await gatewayFailure(response);
    if (isTransient(failure, response.status)) return { ok: false, error: failure };
    throw failure;
  }
}
