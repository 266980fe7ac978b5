import type { FactoryProvider, INestApplication } from '@nestjs/common';
import type { JetStreamClient, JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { ServiceMetrics } from '@llm-stream/observability';
import { JsonLogger } from '@llm-stream/service-kit';
import { SERVICE_METRICS } from '../metrics/metrics-tokens.js';
import { JETSTREAM, JETSTREAM_MANAGER, NATS_CONNECTION } from '../nats/nats-tokens.js';
import { HandlerInstrumentation } from './handler-instrumentation.js';
import type { JetStreamConsumer } from './jetstream-consumer.js';
import { JetStreamTransport } from './jetstream-transport.js';

/** The app's durable consumers (`readonly JetStreamConsumer[]`), provided by the feature module that handles them. */
export const JETSTREAM_CONSUMERS = Symbol('JETSTREAM_CONSUMERS');

/**
 * The JetStream transport as a provider (beside the JETSTREAM_CONSUMERS provider in the feature module), so
 * that a provider can stop a consumer itself ({@link JetStreamTransport.stopConsumer}) before Nest closes the
 * transports. On the process's one connection.
 */
export const jetStreamTransportProvider: FactoryProvider<JetStreamTransport> = {
  provide: JetStreamTransport,
  inject: [NATS_CONNECTION, JETSTREAM, JETSTREAM_MANAGER, SERVICE_METRICS, JsonLogger, JETSTREAM_CONSUMERS],
  useFactory: (nc: NatsConnection, js: JetStreamClient, jsm: JetStreamManager, metrics: ServiceMetrics, logger: JsonLogger, consumers: readonly JetStreamConsumer[]) =>
    new JetStreamTransport({ nc, js, jsm, consumers, logger, instrumentation: new HandlerInstrumentation(metrics, logger) }),
};

/**
 * Connects the app's JetStream transport (its `jetStreamTransportProvider`) to the app. Call
 * `app.startAllMicroservices()` afterwards: it fails if a consumer cannot be set up.
 */
export function attachJetStream(app: INestApplication): void {
  app.connectMicroservice({ strategy: app.get(JetStreamTransport) });
}
