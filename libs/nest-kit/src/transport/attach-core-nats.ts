import type { INestApplication } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import type { ServiceMetrics } from '@llm-stream/observability';
import type { JsonLogger } from '@llm-stream/service-kit';
import { SERVICE_METRICS } from '../metrics/metrics-tokens.js';
import { NATS_CONNECTION } from '../nats/nats-tokens.js';
import { CoreNatsTransport } from './core-nats-transport.js';
import { HandlerInstrumentation } from './handler-instrumentation.js';

/**
 * Connects the core NATS transport to the app (a hybrid app: HTTP and message handlers share the container)
 * on the process's one connection. Call `app.startAllMicroservices()` afterwards, before serving HTTP, so the
 * control plane listens before the first request arrives. Nest closes the transport on shutdown after the
 * providers' beforeApplicationShutdown hooks (a draining gateway still takes cancel requests) and before the
 * connection drains.
 */
export function attachCoreNats(app: INestApplication, logger: JsonLogger): void {
  const nc = app.get<NatsConnection>(NATS_CONNECTION);
  const instrumentation = new HandlerInstrumentation(app.get<ServiceMetrics>(SERVICE_METRICS), logger);
  app.connectMicroservice({ strategy: new CoreNatsTransport(nc, instrumentation) });
}
