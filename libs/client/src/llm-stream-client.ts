import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { Assembler, STREAM_NAMES, eventsSubject, tenantEventsWildcard } from '@llm-stream/contract';
import { LlmStreamClientError } from './client-error.js';
import { HAND_BACK_DELAY_MS, durableConsumer, orderedConsumer } from './event-consumers.js';
import { EventSubscription, type SubscriptionPlan, type SubscriptionSettings } from './event-subscription.js';
import {
  CLIENT_DEFAULTS,
  checkConsumerName,
  checkCount,
  checkStart,
  checkStreamId,
  checkTenant,
  type DurableTenantStreamsOptions,
  type LlmStreamClientOptions,
  type StreamOptions,
  type TenantStreamsOptions,
} from './llm-stream-client-options.js';
import { streamOutcome, type StreamOutcome } from './stream-outcome.js';
import type { GapHandler } from './subscription-reports.js';

/**
 * A backend's typed reader of one tenant's contract events in JetStream (stream `LLM_EVENTS`, subjects
 * `llm.events.<tenant>.<stream_id>`). Every subscription delivers each (stream_id, seq) once and in seq order
 * per stream, whatever storage and redelivery do (republished events out of order, duplicates, consumers
 * recreated after a reconnect), and skips invalid messages without ending the iteration.
 *
 * The client does not own the connection: close it after {@link close}. Connect with
 * `maxReconnectAttempts: -1` so that a long NATS outage pauses the subscriptions instead of ending them.
 *
 * On a NATS server with the shipped authorization, connect as the tenant's backend user `backend-<tenant>`
 * (its password from the credentials file the operator made, `tenants.<tenant>.backend`): that user's account
 * holds the tenant's own `LLM_EVENTS`, which this client reads unchanged, and nothing of any other tenant. Add
 * the `tls` options (`caFile`, and `certFile`/`keyFile` when the server asks for a client certificate) for TLS.
 *
 * @example
 * const nc = await connect({ servers: 'tls://nats:4222', user: 'backend-acme', pass: password, tls: { caFile }, maxReconnectAttempts: -1 });
 * const client = new LlmStreamClient(nc, { tenant: 'acme' });
 * const outcome = await client.result('st_01J...');
 * for (const call of outcome.toolCalls) await runTool(call.name, call.arguments); // only if completed
 */
export class LlmStreamClient {
  readonly tenant: string;
  private readonly js: JetStreamClient;
  private manager: Promise<JetStreamManager> | undefined;
  private readonly subscriptions = new Set<EventSubscription>();
  private closed = false;

  constructor(
    private readonly nc: NatsConnection,
    private readonly options: LlmStreamClientOptions,
  ) {
    checkTenant(options.tenant);
    for (const name of ['gapTimeoutMs', 'maxHeldEvents', 'maxFinishedStreams'] as const) {
      const value = options[name];
      if (value !== undefined) checkCount(name, value);
    }
    this.tenant = options.tenant;
    this.js = jetstream(nc);
  }

  /**
   * One stream's events from its first stored event (or after `afterSeq`), ending after its terminal event
   * (stream.done or stream.error). Waits for a stream that has not started yet.
   */
  stream(streamId: string, options: StreamOptions = {}): EventSubscription {
    checkStreamId(streamId);
    const afterSeq = options.afterSeq ?? 0;
    checkCount('afterSeq', afterSeq, true);
    return this.subscribe(
      {
        start: orderedConsumer(this.js, () => this.jsm(), eventsSubject(this.tenant, streamId), 'all'),
        acking: false,
        single: { streamId, afterSeq },
      },
      options.signal,
    );
  }

  /**
   * Every stream of the tenant, interleaved, each one exactly once and in order; it never ends before
   * {@link EventSubscription.close}. A stream already running at the start (`new`, a Date) is delivered
   * from the first event seen, after the gap timeout (an earlier event may still arrive out of order).
   * Within one process, reconnects lose and repeat nothing; across restarts use
   * {@link durableTenantStreams}.
   */
  tenantStreams(options: TenantStreamsOptions = {}): EventSubscription {
    const since = options.since ?? 'new';
    checkStart(since);
    return this.subscribe(
      { start: orderedConsumer(this.js, () => this.jsm(), tenantEventsWildcard(this.tenant), since), acking: false },
      options.signal,
      options.onGap,
    );
  }

  /**
   * Every stream of the tenant through the durable consumer `name` (created on first use with `since`,
   * default `all`), for a backend that must not miss an event across its own restarts. In a tenant's own
   * account (the shipped authorization) names are the tenant's; on a shared, anonymous server they are global in
   * LLM_EVENTS: include the tenant there (a name taken by another tenant is `consumer_mismatch`).
   *
   * Exactly-once boundary: an event is acknowledged when the loop asks for the next one, after
   * `checkpoints.save`. Nothing is lost: an event is acknowledged only after the backend processed it, and
   * a stream met mid-way after a restart is started only once earlier unacknowledged events had their
   * chance to be redelivered. Nothing is delivered twice within one process. Across a crash, the event
   * being processed is delivered again (it was not acknowledged); without a persistent `checkpoints` store,
   * so are events whose ack was still in flight. One reader per durable name at a time.
   */
  durableTenantStreams(name: string, options: DurableTenantStreamsOptions = {}): EventSubscription {
    checkConsumerName(name);
    const since = options.since ?? 'all';
    checkStart(since);
    const ackWaitMs = options.ackWaitMs ?? CLIENT_DEFAULTS.ackWaitMs;
    checkCount('ackWaitMs', ackWaitMs);
    const plan: SubscriptionPlan = {
      start: durableConsumer(this.js, () => this.jsm(), {
        name,
        filter: tenantEventsWildcard(this.tenant),
        since,
        ackWaitMs,
        maxAckPending: this.options.maxHeldEvents ?? CLIENT_DEFAULTS.maxHeldEvents,
      }),
      acking: true,
      handBackDelayMs: HAND_BACK_DELAY_MS,
      ...(options.checkpoints === undefined ? {} : { checkpoints: options.checkpoints }),
    };
    return this.subscribe(plan, options.signal, options.onGap);
  }

  /**
   * Reads a stream to its end and assembles it with the contract's {@link Assembler}. Tool calls are in
   * `toolCalls` only when the stream completed; otherwise in `unexecutableToolCalls`, with the reason.
   * Rejects if the client is closed or `signal` aborts first.
   */
  async result(streamId: string, options: { readonly signal?: AbortSignal } = {}): Promise<StreamOutcome> {
    const assembler = new Assembler();
    for await (const event of this.stream(streamId, options)) assembler.push(event);
    const outcome = streamOutcome(streamId, assembler.result());
    if (outcome.status !== 'open') return outcome;
    options.signal?.throwIfAborted();
    throw new LlmStreamClientError('client_closed', `the client was closed before ${streamId} ended`);
  }

  /** Deletes a durable consumer (a backend retired for good); false if there was none. */
  async deleteDurable(name: string): Promise<boolean> {
    checkConsumerName(name);
    return (await this.jsm()).consumers.delete(STREAM_NAMES.events, name).catch(() => false);
  }

  /** Ends every subscription of this client. The connection stays open (it is the caller's). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.subscriptions].map((subscription) => subscription.close()));
  }

  private subscribe(plan: SubscriptionPlan, signal: AbortSignal | undefined, onGap?: GapHandler): EventSubscription {
    if (this.closed) throw new LlmStreamClientError('client_closed', 'the client is closed');
    const { options } = this;
    const settings: SubscriptionSettings = {
      validate: options.validate ?? CLIENT_DEFAULTS.validate,
      gapTimeoutMs: options.gapTimeoutMs ?? CLIENT_DEFAULTS.gapTimeoutMs,
      maxHeldEvents: options.maxHeldEvents ?? CLIENT_DEFAULTS.maxHeldEvents,
      maxFinishedStreams: options.maxFinishedStreams ?? CLIENT_DEFAULTS.maxFinishedStreams,
      ...(options.onInvalid === undefined ? {} : { onInvalid: options.onInvalid }),
      ...(onGap === undefined ? {} : { onGap }),
      ...(signal === undefined ? {} : { signal }),
    };
    const subscription = new EventSubscription(this.nc, plan, settings, (ended) => this.subscriptions.delete(ended));
    this.subscriptions.add(subscription);
    return subscription;
  }

  private jsm(): Promise<JetStreamManager> {
    // A failed lookup (JetStream not ready yet) is not kept: the next subscription asks again.
    this.manager ??= jetstreamManager(this.nc).catch((error: unknown) => {
      this.manager = undefined;
      throw error;
    });
    return this.manager;
  }
}
