import type { Span } from '@opentelemetry/api';
import type { JetStreamClient, JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { ADAPTERS_BUILD, NormalizerSession, TraceRecorder, createProviderAdapter, parseSseRecord, type SseFrame, type UnstampedRecord } from '@llm-stream/adapters';
import { AckedPublisher, RetryLoop, TraceMessageEncoder, toNatsHeaders, type FinishResult, type OutgoingMessage } from '@llm-stream/pipeline';
import {
  HEADERS,
  STREAM_NAMES,
  encodeWorkItem,
  rawSubject,
  workSubject,
  type JsonValue,
  type ProviderName,
  type GatewayShutdownReason,
  type TraceRecord,
} from '@llm-stream/contract';
import { UpstreamAttempt, type AttemptSettings, type AttemptSummary } from '../upstream/upstream-attempt.js';
import type { UpstreamPlan } from '../upstream/upstream-plan.js';
import { redactRecord } from '../upstream/redaction/redact-record.js';
import type { SecretRedactor } from '../upstream/redaction/secret-redactor.js';
import { LocalEventFeed, type ClientFeed } from './local-event-feed.js';

/** How long open() waits for JetStream to ack `stream.open` before the client is refused (503). */
const OPEN_ACK_TIMEOUT_MS = 5_000;

export interface StreamSpec {
  readonly streamId: string;
  /** The client's request body, recorded only when the key captures prompts. */
  readonly capturedRequest?: JsonValue;
  /** Of the stream's trace, for log lines. */
  readonly traceId: string;
  readonly tenant: string;
  readonly provider: ProviderName;
  readonly plan: UpstreamPlan;
}

export interface RetryPolicy {
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

/** What the runner reports (metrics and logs live in the service around it). */
export interface RunnerObserver {
  attemptEnded(spec: StreamSpec, attempt: number, summary: AttemptSummary, willRetry: boolean): void;
  settled(spec: StreamSpec, session: NormalizerSession): void;
  /** The raw trace could not be proven stored: the NATS connection closed (the process is shutting down). */
  failed(spec: StreamSpec, error: unknown): void;
  /** JetStream acked none of the stream's records while more than the publisher's bound waited: it ends now. */
  backlogged(spec: StreamSpec, unacked: number): void;
  /** A normalizer ended the stream (gateway.lost) before this instance's fenced record: its client is served from the log. */
  fenced(spec: StreamSpec): void;
  /** Every record of the raw trace is acked by JetStream (`result`: how many had to be sent again). */
  stored(spec: StreamSpec, result: FinishResult): void;
}

export interface StreamRunnerDeps {
  readonly nc: NatsConnection;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  readonly gatewayId: string;
  readonly attempts: AttemptSettings;
  readonly retry: RetryPolicy;
  readonly heartbeatIntervalMs: number;
  readonly clientGraceMs: number;
  readonly clock: () => number;
  readonly span: Span;
  readonly traceHeaders: Readonly<Record<string, string>>;
  readonly observer: RunnerObserver;
  /** Every provider key the gateway knows: applied to each record before it is stamped and published. */
  readonly redactor: SecretRedactor;
  /**
   * True when a normalizer may have declared this instance lost at some time since `since` (its lease went
   * unheard, see LeaseRenewer): then the next raw record goes fenced (see AckedPublisher.fenceNext).
   */
  readonly leaseMayHaveLapsedSince: (since: number) => boolean;
  /** The stream's stored events after a seq: what the client is served once the log no longer follows this session. */
  readonly logFeed: (afterSeq: number) => ClientFeed;
  /** False while a normalizer of another adapters build may store this stream's events (see NormalizerBuilds). */
  readonly sessionServes: () => boolean;
}

/**
 * Owns one stream's upstream side: records what the provider sends as the raw trace (published to
 * LLM_RAW in receive order), runs the same deterministic session as the normalizer to decide retries and
 * progress, and ends the stream on cancel, on a client that never came back, or on shutdown.
 */
export class StreamRunner {
  private readonly recorder: TraceRecorder;
  private readonly session = new NormalizerSession({ createAdapter: createProviderAdapter });
  private readonly publisher: AckedPublisher;
  /** The events of this instance's own session, for the HTTP client that created the stream. */
  readonly events: LocalEventFeed;
  /** When the newest record was published (ms): a lease gap since then fences the next one. */
  private lastPublishedAt = 0;
  private readonly encoder: TraceMessageEncoder;
  private current: UpstreamAttempt | undefined;
  private wakeFromBackoff: (() => void) | undefined;
  private readers = 0;
  private graceTimer: NodeJS.Timeout | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  private quietSince = 0;
  private readonly finishedPromise: Promise<void>;
  private markFinished: () => void = () => undefined;

  constructor(
    readonly spec: StreamSpec,
    private readonly deps: StreamRunnerDeps,
  ) {
    this.recorder = new TraceRecorder(deps.clock);
    this.encoder = new TraceMessageEncoder(
      { stream_id: spec.streamId, tenant: spec.tenant, provider: spec.provider, model: spec.plan.model },
      deps.traceHeaders,
    );
    this.publisher = new AckedPublisher(deps.nc, deps.js, STREAM_NAMES.raw, rawSubject(spec.tenant, spec.streamId), { positionHeader: HEADERS.rawSeq });
    this.events = new LocalEventFeed(deps.logFeed);
    if (!deps.sessionServes()) this.serveFromLog();
    this.publisher.onProgress((ackedThrough) => {
      this.events.acked(ackedThrough);
    });
    this.publisher.onFenced(() => {
      this.events.switchToLog();
      deps.observer.fenced(spec);
    });
    // Settled by start() or abandonOpening(), not created there: whoever awaits the runner before it starts
    // (the registry) must not see a stream that has already finished.
    this.finishedPromise = new Promise((resolve) => {
      this.markFinished = resolve;
    });
  }

  get streamId(): string {
    return this.spec.streamId;
  }

  get terminal(): boolean {
    return this.session.terminal;
  }

  /** Resolves (never rejects) when the stream has ended and its raw trace is stored, or could not be. */
  get finished(): Promise<void> {
    return this.finishedPromise;
  }

  /**
   * Makes the stream exist before anything else happens: `stream.open` is stored (acked), then the work
   * item that gives one normalizer replica ownership of it.
   */
  async open(): Promise<void> {
    const { streamId, tenant, provider, plan } = this.spec;
    const record = this.recorder.stamp(
      redactRecord(
        {
          kind: 'stream.open',
          stream_id: streamId,
          tenant,
          provider,
          model: plan.model,
          route: plan.route,
          gateway_id: this.deps.gatewayId,
          max_attempts: this.deps.retry.maxAttempts,
          adapters: ADAPTERS_BUILD,
        },
        this.deps.redactor,
      ),
    );
    this.lastPublishedAt = record.ts;
    // A stream that cannot be opened in time is refused (503) before the provider is called.
    await this.publisher.publishAndWait(this.message(record), OPEN_ACK_TIMEOUT_MS);
    this.events.add(record.raw_seq, this.session.accept(record));
    if (this.spec.capturedRequest !== undefined) this.record({ kind: 'client.request', body: this.spec.capturedRequest });
    await this.publishWorkItem();
  }

  /**
   * open() failed and the client is refused (503), but what it sent may be stored all the same: JetStream
   * stores a message whose ack came too late for the gateway (an event loop lagging under a burst of
   * openings, a paused server). A work item stored without an end would hold a normalizer's slot for good,
   * waiting for records that never come, and the stream would stay `running` in the audit log. So the trace
   * is ended here, while the process lives, as any other: `stream.open` is still in flight (sent again until
   * acked), `gateway.shutdown` (`not_opened`) goes after it, then the work item; a normalizer that takes the
   * item ends the stream interrupted at once. Resolves when the trace is acked (or the connection closed);
   * `finished` settles then.
   */
  async abandonOpening(): Promise<void> {
    this.stopped = true;
    this.events.close();
    try {
      this.record({ kind: 'gateway.shutdown', gateway_id: this.deps.gatewayId, reason: 'not_opened' });
      await new RetryLoop(this.deps.nc).run(`${this.spec.streamId}: work item`, () => this.publishWorkItem());
      this.deps.observer.stored(this.spec, await this.publisher.finish());
    } catch (error) {
      this.deps.observer.failed(this.spec, error);
    } finally {
      this.markFinished();
    }
  }

  /** The work item that gives one normalizer replica ownership of the stream (its id makes a resend a duplicate). */
  private async publishWorkItem(): Promise<void> {
    const { streamId, tenant, provider, plan } = this.spec;
    await this.deps.js.publish(
      workSubject(tenant, streamId),
      encodeWorkItem({ stream_id: streamId, tenant, provider, model: plan.model, gateway_id: this.deps.gatewayId }),
      { msgID: `${streamId}:work`, headers: toNatsHeaders(this.deps.traceHeaders) },
    );
  }

  /**
   * The client is served from the stored log from here on (a normalizer of another adapters build runs):
   * after the events already released, which the log holds too.
   */
  serveFromLog(): void {
    this.events.switchToLog();
  }

  /** Starts the upstream attempts in the background. */
  start(): void {
    // A normalizer of another build heard while the stream was opened (before the registry held it).
    if (!this.deps.sessionServes()) this.serveFromLog();
    this.quietSince = this.deps.clock();
    this.heartbeatTimer = setInterval(() => {
      this.heartbeatIfIdle();
    }, this.deps.heartbeatIntervalMs);
    this.runAttempts()
      .catch((error: unknown) => {
        this.deps.observer.failed(this.spec, error);
      })
      .finally(() => {
        // Stopped before its end (the connection closed): whoever ends the stream now does it in the log.
        if (!this.session.terminal) this.events.switchToLog();
        clearInterval(this.heartbeatTimer);
        clearTimeout(this.graceTimer);
        this.deps.observer.settled(this.spec, this.session);
        this.deps.span.end();
        this.markFinished();
      });
  }

  /** DELETE, or a client that did not come back: the upstream request is aborted, the stream ends interrupted. */
  cancel(reason: 'client_request' | 'client_disconnected'): void {
    if (this.session.terminal || this.stopped) return;
    this.stopped = true;
    this.record({ kind: 'client.cancel', reason });
    this.current?.stop('cancelled', reason);
    this.wakeFromBackoff?.();
  }

  /** A drain that ran out of time: the stream ends now instead of waiting for a lease to expire. */
  shutdown(): void {
    this.endHere('drain_timeout');
  }

  /**
   * Ends the stream from this side: recorded before the attempt's end, so the stream ends because of it, as a
   * cancel does. `trace_backlog`: the publisher holds more unconfirmed records than its bound (NATS has been
   * away too long); the records stay queued and the end is stored with them once NATS is back.
   */
  private endHere(reason: GatewayShutdownReason): void {
    if (this.session.terminal || this.stopped) return;
    this.stopped = true;
    this.record({ kind: 'gateway.shutdown', gateway_id: this.deps.gatewayId, reason });
    this.current?.stop('aborted', reason === 'trace_backlog' ? 'raw trace backlog' : 'gateway shutdown');
    this.wakeFromBackoff?.();
  }

  /** A reader (here or on another gateway) is following the stream. */
  readerAttached(): void {
    this.readers += 1;
    clearTimeout(this.graceTimer);
    this.graceTimer = undefined;
  }

  /** A reader left. With nobody left before the end, the client has CLIENT_GRACE_MS to come back. */
  readerDetached(): void {
    this.readers = Math.max(0, this.readers - 1);
    if (this.readers > 0 || this.session.terminal || this.stopped) return;
    clearTimeout(this.graceTimer);
    this.graceTimer = setTimeout(() => {
      this.cancel('client_disconnected');
    }, this.deps.clientGraceMs);
  }

  private async runAttempts(): Promise<void> {
    for (let attempt = 1; !this.session.terminal && !this.stopped; attempt += 1) {
      this.record({ kind: 'attempt.start', attempt });
      const upstream = new UpstreamAttempt(attempt, this.spec.plan, this.deps.attempts, {
        record: (record, parsed) => {
          this.record(record, parsed);
        },
        standing: () => (this.session.terminal ? 'ended' : this.session.retryableFailurePending ? 'retry_pending' : 'open'),
        lastProgressTs: () => this.session.lastProgressTs,
      });
      this.current = upstream;
      const summary = await upstream.run();
      this.current = undefined;
      const willRetry = this.session.awaitingRetry && !this.stopped;
      this.deps.observer.attemptEnded(this.spec, attempt, summary, willRetry);
      if (!willRetry) break;
      await this.backoff(attempt, summary.retryAfterMs);
    }
    this.deps.observer.stored(this.spec, await this.publisher.finish());
  }

  /** Exponential backoff with jitter; a Retry-After is honored up to RETRY_MAX_DELAY_MS. */
  private backoff(attempt: number, retryAfterMs: number | undefined): Promise<void> {
    const { baseDelayMs, maxDelayMs } = this.deps.retry;
    const exponential = baseDelayMs * 2 ** (attempt - 1) * (0.8 + Math.random() * 0.4);
    const delay = Math.min(maxDelayMs, Math.max(retryAfterMs ?? 0, exponential));
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, delay);
      this.wakeFromBackoff = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => {
      this.wakeFromBackoff = undefined;
    });
  }

  /** A heartbeat for each interval without progress; it is not progress itself (the timeouts ignore it). */
  private heartbeatIfIdle(): void {
    if (this.session.terminal || this.stopped) return;
    const now = this.deps.clock();
    const quietSince = Math.max(this.quietSince, this.session.lastProgressTs ?? 0);
    if (now - quietSince < this.deps.heartbeatIntervalMs) return;
    this.quietSince = now;
    this.record({ kind: 'heartbeat' });
  }

  /** Redacts and stamps a record, core-publishes it into LLM_RAW and feeds the local session. */
  private record(received: UnstampedRecord, parsed?: SseFrame): void {
    const unstamped = redactRecord(received, this.deps.redactor);
    const record = this.recorder.stamp(unstamped);
    if (this.deps.leaseMayHaveLapsedSince(this.lastPublishedAt)) this.publisher.fenceNext();
    this.lastPublishedAt = record.ts;
    this.publisher.publish(this.message(record));
    // The local session must see what the normalizer will read from the trace: a redacted frame is parsed again.
    const frame = unstamped === received || unstamped.kind !== 'frame' ? parsed : parseSseRecord(unstamped.text, unstamped.partial === true);
    this.events.add(record.raw_seq, this.session.accept(record, frame));
    if (this.publisher.overflowing && !this.stopped && !this.session.terminal) {
      this.deps.observer.backlogged(this.spec, this.publisher.unackedCount);
      this.endHere('trace_backlog');
    }
  }

  private message(record: TraceRecord): OutgoingMessage {
    return this.encoder.encode(record);
  }

}
