import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { SpanStatusCode, context, trace } from '@opentelemetry/api';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JetStreamClient, JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { storedMessageCount } from '@llm-stream/pipeline';
import {
  STREAM_NAMES,
  cancelSubject,
  decodeCancelReply,
  decodeEventMessage,
  encodeCancelRequest,
  encodeReaderNotice,
  eventsSubject,
  isTerminalEvent,
  isValidStreamId,
  rawSubject,
  readerSubject,
  type JsonValue,
  type ProviderName,
} from '@llm-stream/contract';
import { contextFromHeaders, headersForSpan } from '@llm-stream/observability';
import { JETSTREAM, JETSTREAM_MANAGER, NATS_CONNECTION } from '@llm-stream/nest-kit';
import { JsonLogger, type ApiKeyPrincipal } from '@llm-stream/service-kit';
import { GatewayConfig } from '../config/gateway-config.js';
import { GatewayIdentity } from '../config/gateway-identity.js';
import { ApiError } from '../errors/api-error.js';
import { BeyondEndError } from '../errors/beyond-end-error.js';
import { GatewayMetrics } from '../metrics/gateway-metrics.js';
import { SecretRedactor } from '../upstream/redaction/secret-redactor.js';
import { RouteSource } from '../routes/route-source.js';
import { refusalMessage } from './admission.js';
import { routeRequest } from './route-request.js';
import { EventFeed, type StoredEvent } from './event-feed.js';
import type { ClientFeed } from './local-event-feed.js';
import { isVisibleTo } from './projection.js';
import { SseWriter } from './sse-writer.js';
import { newStreamId } from './stream-id.js';
import { StreamObserverService } from './stream-observer.service.js';
import { StreamRegistry, type OpeningSlot } from './stream-registry.service.js';
import { StreamRunner } from './stream-runner.js';

const KEEP_ALIVE_MS = 15_000;
/** `Retry-After` of an `overloaded` refusal: a stream slot or a calmer event loop is usually a second away. */
const OVERLOAD_RETRY_AFTER_S = 1;

/** The metric labels of a stream this instance opened. */
type StreamLabels = { readonly provider: ProviderName; readonly route: string };

/** A stream this instance just created, for its time to first delta: its labels and when it was accepted. */
type CreatedStream = { readonly labels: StreamLabels; readonly acceptedAt: number };

/** The HTTP API's behaviour: create a stream, follow (resume) one, cancel one. */
@Injectable()
export class StreamsService {
  constructor(
    private readonly config: GatewayConfig,
    private readonly identity: GatewayIdentity,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(JETSTREAM) private readonly js: JetStreamClient,
    @Inject(JETSTREAM_MANAGER) private readonly jsm: JetStreamManager,
    private readonly registry: StreamRegistry,
    private readonly metrics: GatewayMetrics,
    private readonly observer: StreamObserverService,
    private readonly logger: JsonLogger,
    private readonly redactor: SecretRedactor,
    private readonly routes: RouteSource,
  ) {}

  /** POST /v1/streams/{route}: calls the route's upstream and answers with the stream's contract events. */
  async create(
    routeName: string,
    body: unknown,
    queryModel: string | undefined,
    principal: ApiKeyPrincipal,
    request: IncomingMessage,
    response: ServerResponse,
  ): Promise<void> {
    const slot = this.admit();
    let runner: StreamRunner;
    let labels: StreamLabels;
    try {
      ({ runner, labels } = await this.open(routeName, body, queryModel, principal, request, slot));
    } finally {
      // A request refused before its runner was held (a bad body, an unknown route) frees its slot.
      slot.release();
    }
    // The client is served from this instance's own session, each event once its raw records are acked.
    const following = this.follow(runner.events, runner.streamId, principal, response, runner, { labels, acceptedAt: Date.now() });
    this.registry.addFollower(following);
    await following;
  }

  /** Admission: a slot counted against MAX_OPEN_STREAMS from now on, or 503 (nothing held, nothing stored). */
  private admit(): OpeningSlot {
    if (!this.registry.isAccepting) throw new ApiError(HttpStatus.SERVICE_UNAVAILABLE, 'unavailable', 'the gateway is shutting down');
    const admission = this.registry.admitStream();
    if (admission.admitted) return admission.slot;
    const { refusal } = admission;
    this.metrics.streamsRefused.inc({ reason: refusal.reason });
    throw new ApiError(HttpStatus.SERVICE_UNAVAILABLE, 'overloaded', refusalMessage(refusal, this.registry.limits), OVERLOAD_RETRY_AFTER_S);
  }

  /** Routes the request and opens its stream (stream.open stored); the runner is held in `slot`, and started. */
  private async open(
    routeName: string,
    body: unknown,
    queryModel: string | undefined,
    principal: ApiKeyPrincipal,
    request: IncomingMessage,
    slot: OpeningSlot,
  ): Promise<{ runner: StreamRunner; labels: StreamLabels }> {
    const { route, plan } = routeRequest(this.routes.current(), { routeName, body, queryModel, tenant: principal.tenant }, this.config.ANTHROPIC_VERSION);
    const provider = route.protocol;
    // Every route's secret is registered when its table is loaded; a secret file rotated since is read as the
    // stream is routed, so its new value is registered here (idempotent).
    this.redactor.register(plan.secret);
    const streamId = newStreamId();
    const span = trace.getTracer('llm-stream-gateway').startSpan(
      'llm.stream',
      {
        attributes: {
          'llm.stream_id': streamId,
          'llm.provider': provider,
          'llm.route': route.name,
          'llm.model': plan.model,
          'llm.tenant': principal.tenant,
        },
      },
      contextFromHeaders((name) => headerValue(request, name)),
    );
    const spec = {
      streamId,
      traceId: span.spanContext().traceId,
      tenant: principal.tenant,
      provider,
      plan,
      ...(principal.capturePrompts && { capturedRequest: body as JsonValue }),
    };
    const runner = new StreamRunner(spec, {
      nc: this.nc,
      js: this.js,
      jsm: this.jsm,
      gatewayId: this.identity.id,
      attempts: {
        connectTimeoutMs: route.limits.connectTimeoutMs ?? this.config.UPSTREAM_CONNECT_TIMEOUT_MS,
        idleTimeoutMs: route.limits.idleTimeoutMs ?? this.config.UPSTREAM_IDLE_TIMEOUT_MS,
        progressTimeoutMs: route.limits.progressTimeoutMs ?? this.config.UPSTREAM_PROGRESS_TIMEOUT_MS,
        maxFrameBytes: this.config.MAX_FRAME_BYTES,
        maxErrorBodyBytes: 65_536,
      },
      retry: {
        maxAttempts: route.limits.maxAttempts ?? this.config.UPSTREAM_MAX_ATTEMPTS,
        baseDelayMs: this.config.RETRY_BASE_DELAY_MS,
        maxDelayMs: this.config.RETRY_MAX_DELAY_MS,
      },
      heartbeatIntervalMs: this.config.HEARTBEAT_INTERVAL_MS,
      clientGraceMs: this.config.CLIENT_GRACE_MS,
      clock: Date.now,
      span,
      traceHeaders: headersForSpan(span),
      observer: this.observer,
      redactor: this.redactor,
      leaseMayHaveLapsedSince: (since) => this.registry.leaseMayHaveLapsedSince(since),
      logFeed: (afterSeq) => this.feed(spec.tenant, streamId, afterSeq),
      sessionServes: () => this.registry.sessionServes(),
    });
    try {
      await context.with(trace.setSpan(context.active(), span), () => runner.open());
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: 'NATS unavailable' });
      span.end();
      this.logger.error('cannot open stream', { stream_id: streamId, trace_id: span.spanContext().traceId, error: String(error) });
      // Whatever of the opening JetStream stored after all is ended in the background; the runner counts as
      // open (admission, drain) until its end is stored.
      slot.hold(runner);
      void runner.abandonOpening();
      throw new ApiError(HttpStatus.SERVICE_UNAVAILABLE, 'unavailable', 'the event bus is unavailable; nothing was sent to the provider');
    }
    slot.hold(runner);
    this.metrics.streamsStarted.inc({ provider, route: route.name });
    this.logger.info('stream accepted', { stream_id: streamId, trace_id: span.spanContext().traceId, provider, route: route.name, tenant: principal.tenant });
    runner.start();
    return { runner, labels: { provider, route: route.name } };
  }

  /** GET /v1/streams/{id}/events: the stream's events after `afterSeq` (Last-Event-ID), live or finished. */
  async resume(streamId: string, afterSeq: number, principal: ApiKeyPrincipal, response: ServerResponse): Promise<void> {
    const newest = await this.requireStream(streamId, principal.tenant);
    if (newest?.ends === true && afterSeq > newest.seq) throw new BeyondEndError(afterSeq, newest.seq);
    const local = this.registry.local(streamId);
    const following = this.follow(
      this.feed(principal.tenant, streamId, afterSeq),
      streamId,
      principal,
      response,
      local,
      undefined,
      // An id the log has not reached: the answer waits for an event above it, so that a stream ending below
      // it can still be answered 400 beyond_end.
      afterSeq > (newest?.seq ?? 0) ? 'with_first_event' : 'at_once',
    );
    if (local) this.registry.addFollower(following);
    await following;
  }

  /** DELETE /v1/streams/{id}: asks whichever gateway holds the upstream to cancel it. */
  async cancel(streamId: string, principal: ApiKeyPrincipal): Promise<{ stream_id: string; status: 'cancelling' }> {
    const local = this.registry.local(streamId);
    if (local && local.spec.tenant === principal.tenant) {
      if (local.terminal) throw new ApiError(HttpStatus.CONFLICT, 'already_ended', 'the stream has already ended');
      local.cancel('client_request');
      return { stream_id: streamId, status: 'cancelling' };
    }
    // The stored log says at once whether it has ended; only a live stream needs its gateway's answer.
    if ((await this.requireStream(streamId, principal.tenant))?.ends === true)
      throw new ApiError(HttpStatus.CONFLICT, 'already_ended', 'the stream has already ended');
    try {
      const reply = await this.nc.request(cancelSubject(streamId), encodeCancelRequest({ tenant: principal.tenant }), { timeout: 2_000 });
      if (decodeCancelReply(reply.string()).ok) return { stream_id: streamId, status: 'cancelling' };
    } catch {
      // No gateway holds it: it has ended, or its gateway is gone (its lease will end it).
    }
    throw new ApiError(HttpStatus.CONFLICT, 'already_ended', 'no gateway holds this stream anymore: it has ended or is ending');
  }

  /**
   * 404 unless the tenant's subjects hold the stream: another tenant's stream is indistinguishable from none.
   * Its events, or else its raw trace: `stream.open` is stored before the client ever learns the stream id,
   * while the first event waits for a normalizer (none may be running right now). Answers the newest event the
   * log holds (its seq, and whether it ends the stream), read in the same request that proves the stream exists;
   * undefined when the log holds no event yet (or one it cannot decode).
   */
  private async requireStream(streamId: string, tenant: string): Promise<{ readonly seq: number; readonly ends: boolean } | undefined> {
    if (isValidStreamId(streamId)) {
      const subject = eventsSubject(tenant, streamId);
      const last = await lookUp(() => this.jsm.streams.getMessage(STREAM_NAMES.events, { last_by_subj: subject }));
      if (last) {
        const decoded = decodeEventMessage(subject, last.string(), { validate: false });
        return decoded.ok ? { seq: decoded.value.event.seq, ends: isTerminalEvent(decoded.value.event) } : undefined;
      }
      if (await lookUp(async () => (await storedMessageCount(this.jsm, STREAM_NAMES.raw, rawSubject(tenant, streamId))) > 0)) return undefined;
    }
    throw new ApiError(HttpStatus.NOT_FOUND, 'not_found', `no stream ${streamId}`);
  }

  /** The stream's events as the log holds them, after `afterSeq` (a resume, or an owner's session that no longer follows the log). */
  private feed(tenant: string, streamId: string, afterSeq: number): EventFeed {
    return new EventFeed({ nc: this.nc, js: this.js, jsm: this.jsm }, tenant, streamId, afterSeq);
  }

  private async follow(
    feed: ClientFeed,
    streamId: string,
    principal: ApiKeyPrincipal,
    response: ServerResponse,
    runner: StreamRunner | undefined,
    created: CreatedStream | undefined,
    answer: 'at_once' | 'with_first_event' = 'at_once',
  ): Promise<void> {
    const writer = new SseWriter(response, KEEP_ALIVE_MS);
    const tenant = principal.tenant;
    const open = (): void => {
      if (!writer.opened) writer.open(streamId);
    };
    if (answer === 'at_once') open();
    this.attachReader(runner, tenant, streamId);
    let ended = false;
    const left = (): void => {
      feed.close();
      if (!ended) this.detachReader(runner, tenant, streamId);
    };
    // A client that hung up while the stream was being opened gets no 'close' event anymore: it already left.
    if (response.destroyed) left();
    else response.once('close', left);
    /** Until its first delta is written. */
    let awaitingFirstDelta = created;
    let refusal: ApiError | undefined;
    try {
      for await (const event of feed) {
        if (!isVisibleTo(event, principal)) continue;
        open();
        await writer.write(event);
        this.measure(event, runner !== undefined);
        if (awaitingFirstDelta !== undefined && event.type === 'block.delta') {
          this.metrics.timeToFirstDelta.observe(awaitingFirstDelta.labels, (Date.now() - awaitingFirstDelta.acceptedAt) / 1000);
          awaitingFirstDelta = undefined;
        }
      }
      // The feed ends by itself only after the terminal event (written now, or before Last-Event-ID).
      ended = true;
    } catch (error) {
      // Nothing answered yet: the stream ended below Last-Event-ID (a 400 that says so), or a coded 503.
      if (!writer.opened) refusal = error instanceof BeyondEndError ? error : unavailable();
      // The line must say which stream (the framework's would not).
      if (!(error instanceof BeyondEndError))
        this.logger.error('cannot read the stream from JetStream', {
          stream_id: streamId,
          trace_id: runner?.spec.traceId ?? feed.traceId ?? null,
          error: error instanceof Error ? error.message : String(error),
        });
    } finally {
      // Never a clean end without the terminal event: the client would take the answer for complete. A cut
      // connection tells it to resume (GET .../events with Last-Event-ID) on this or another gateway.
      if (ended) {
        // A resume at the terminal's own seq: the client holds the terminal, and nothing follows it.
        if (!response.destroyed) open();
        writer.end();
      } else if (refusal === undefined || response.destroyed) writer.cut();
    }
    if (refusal !== undefined && !response.destroyed) throw refusal;
  }

  private measure(event: StoredEvent, ownClock: boolean): void {
    this.metrics.eventsWritten.inc({ type: event.type });
    // `ts` is this gateway's receive time of the upstream frame only when it holds the upstream.
    if (ownClock && event.type === 'block.delta') this.metrics.addedLatency.observe(Math.max(0, Date.now() - event.ts) / 1000);
  }

  private attachReader(runner: StreamRunner | undefined, tenant: string, streamId: string): void {
    if (runner) runner.readerAttached();
    else this.nc.publish(readerSubject(streamId), encodeReaderNotice({ tenant, action: 'attach' }));
  }

  private detachReader(runner: StreamRunner | undefined, tenant: string, streamId: string): void {
    if (runner) runner.readerDetached();
    else if (!this.nc.isClosed()) this.nc.publish(readerSubject(streamId), encodeReaderNotice({ tenant, action: 'detach' }));
  }
}

/**
 * A look-up in JetStream before any answer is written: when NATS does not answer it is a 503 `unavailable` (try
 * again, here or on another gateway), as for POST, not a 500.
 */
async function lookUp<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch {
    throw unavailable();
  }
}

function unavailable(): ApiError {
  return new ApiError(HttpStatus.SERVICE_UNAVAILABLE, 'unavailable', 'the event bus is unavailable; try again');
}

function headerValue(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return typeof value === 'string' ? value : undefined;
}
