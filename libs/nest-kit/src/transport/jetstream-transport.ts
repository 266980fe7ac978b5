import { Server, type CustomTransportStrategy, type MessageHandler } from '@nestjs/microservices';
import type { JetStreamClient, JetStreamManager, JsMsg } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { DurableConsumerLoop, headerLookup, type DeliveryMode, type Settlement } from '@llm-stream/pipeline';
import { contextFromHeaders } from '@llm-stream/observability';
import { errorCode, type JsonLogger } from '@llm-stream/service-kit';
import { HandlerInstrumentation } from './handler-instrumentation.js';
import { handlerResult } from './handler-result.js';
import type { JetStreamConsumer } from './jetstream-consumer.js';
import { JetStreamContext } from './jetstream-context.js';
import { batchSettlementsOf, outcomeOf, settlementOf } from './settlement-result.js';

/** Names the JetStream transport in `@EventPattern(<durable consumer name>, JETSTREAM_TRANSPORT)`. */
export const JETSTREAM_TRANSPORT = Symbol('llm-stream-jetstream');

export interface JetStreamTransportOptions {
  readonly nc: NatsConnection;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  readonly consumers: readonly JetStreamConsumer[];
  readonly instrumentation: HandlerInstrumentation;
  readonly logger: JsonLogger;
}

/**
 * A transport of @nestjs/microservices for durable JetStream consumers: one DurableConsumerLoop (libs/pipeline)
 * per consumer, its messages handed to the `@EventPattern(<durable name>, JETSTREAM_TRANSPORT)` handler, one at a time or
 * in batches, and settled by what the handler returns (ack, nak with a delay, term, or held: the handler keeps
 * it and settles it itself). Handlers are observed in one place ({@link HandlerInstrumentation}).
 *
 * `listen` creates (or updates) every consumer first and fails if one cannot be set up or has no handler, so
 * `app.startAllMicroservices()` fails and the service does not start half-wired. Nest closes the transport
 * after the providers' beforeApplicationShutdown hooks; a provider that must stop taking messages earlier (the
 * normalizer, before it drains its streams) calls {@link stopConsumer}.
 */
export class JetStreamTransport extends Server implements CustomTransportStrategy {
  override readonly transportId = JETSTREAM_TRANSPORT;
  // A failing handler must reach the consume loop, which settles its message by the consumer's failure policy.
  override readonly propagatesEventHandlerErrors = true;
  private readonly loops = new Map<string, DurableConsumerLoop>();

  constructor(private readonly options: JetStreamTransportOptions) {
    super();
  }

  listen(callback: (error?: unknown) => void): void {
    this.start().then(
      () => {
        callback();
      },
      (error: unknown) => {
        callback(error);
      },
    );
  }

  /** Stops one consumer: the message (or batch) in hand finishes, the rest goes back to JetStream. */
  async stopConsumer(durable: string): Promise<void> {
    await this.loops.get(durable)?.stop();
  }

  async close(): Promise<void> {
    await Promise.all([...this.loops.values()].map((loop) => loop.stop()));
  }

  /** The transport reports no events of its own: interruptions are logged, the connection has `status()`. */
  on(): never {
    throw new Error('JetStreamTransport emits no events: watch the NATS connection status() instead');
  }

  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- Server.unwrap's own signature
  unwrap<T>(): T {
    return this.options.js as T;
  }

  private async start(): Promise<void> {
    const { consumers, nc, js, jsm, logger } = this.options;
    const unknown = [...this.messageHandlers.keys()].filter((pattern) => !consumers.some(({ consumer }) => consumer.durable === pattern));
    if (unknown.length > 0) throw new Error(`JetStream handlers without a consumer: ${unknown.join(', ')}`);
    for (const definition of consumers) {
      const handler = this.messageHandlers.get(definition.consumer.durable);
      if (handler === undefined) throw new Error(`the JetStream consumer ${definition.consumer.durable} has no @EventPattern handler`);
      const loop = new DurableConsumerLoop({
        nc,
        js,
        jsm,
        consumer: definition.consumer,
        delivery: this.deliveryOf(definition, handler),
        ...(definition.pullAhead === undefined ? {} : { pullAhead: definition.pullAhead }),
        onInterrupted: (error) => {
          logger.warn('durable consumer interrupted: consuming again', {
            consumer: error.consumer,
            reason: error.code,
            ...(error.cause === undefined ? {} : { error: errorCode(error.cause) }),
          });
        },
      });
      this.loops.set(definition.consumer.durable, loop);
      try {
        await loop.start();
      } catch (error) {
        // The service will not start: the consumers already running hand back what they took.
        await this.close();
        throw error;
      }
    }
  }

  private deliveryOf({ consumer, delivery }: JetStreamConsumer, handler: MessageHandler): DeliveryMode {
    const pattern = consumer.durable;
    const deliveredBy = { stream: consumer.stream, consumer: pattern };
    const { instrumentation } = this.options;
    switch (delivery.kind) {
      case 'single':
        return {
          kind: 'single',
          onFailure: delivery.onFailure,
          handle: async (message: JsMsg, stopping: AbortSignal): Promise<Settlement> => {
            const header = headerLookup(message.headers);
            const trace = header('traceparent') === undefined ? undefined : contextFromHeaders(header);
            const { settlement } = await instrumentation.observe(
              { transport: 'jetstream', pattern, subject: message.subject, trace },
              async () => {
                const returned = settlementOf(pattern, await handlerResult(handler(message, new JetStreamContext([deliveredBy, stopping]))));
                return { outcome: outcomeOf(returned), settlement: returned };
              },
            );
            return settlement;
          },
        };
      case 'batch':
        return {
          kind: 'batch',
          onFailure: delivery.onFailure,
          batchSize: delivery.batchSize,
          lingerMs: delivery.lingerMs,
          handle: async (batch: readonly JsMsg[], stopping: AbortSignal): Promise<readonly Settlement[]> => {
            // No span per batch: its messages belong to many traces (a handler continues the ones it needs).
            const { settlements } = await instrumentation.observe(
              { transport: 'jetstream', pattern, subject: consumer.stream, trace: undefined, count: batch.length },
              async () => {
                const returned = batchSettlementsOf(pattern, await handlerResult(handler(batch, new JetStreamContext([deliveredBy, stopping]))), batch.length);
                return { outcomes: returned.map(outcomeOf), settlements: returned };
              },
            );
            return settlements;
          },
        };
    }
  }
}
