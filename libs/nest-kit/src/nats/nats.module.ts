import { Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { NatsReadinessProbe, connectPipeline } from '@llm-stream/pipeline';
import { natsSettings, type ServiceConfig } from '@llm-stream/service-kit';
import { JETSTREAM, JETSTREAM_MANAGER, NATS_CONNECTION } from './nats-tokens.js';

/** What {@link NatsModule.forRoot} needs of the service. */
export interface NatsModuleOptions {
  /** The service's name: the connection is named `llm-stream-<service>` (the server's `/connz` shows it). */
  readonly service: string;
  /** The service's validated configuration (NATS_URL, NATS_USER and the other NATS_*, JETSTREAM_REPLICAS, retention). */
  readonly config: ServiceConfig;
}

/**
 * One NATS connection per process (`connectPipeline` as the service's NATS_USER: the pipeline's streams are
 * checked, or created when anonymous, before anything uses it), the JetStream client and manager over it, and the readiness probe. Global: every feature module injects
 * the same connection by its token. On shutdown it drains the connection last, after every provider's own
 * shutdown hook and the microservice transports have stopped, so in-flight publishes are flushed.
 */
@Module({})
export class NatsModule implements OnApplicationShutdown {
  constructor(@Inject(NATS_CONNECTION) private readonly nc: NatsConnection) {}

  static forRoot(options: NatsModuleOptions): DynamicModule {
    return {
      module: NatsModule,
      global: true,
      providers: [
        {
          provide: NATS_CONNECTION,
          useFactory: () => connectPipeline({ name: `llm-stream-${options.service}`, ...natsSettings(options.config) }),
        },
        { provide: JETSTREAM, inject: [NATS_CONNECTION], useFactory: (nc: NatsConnection) => jetstream(nc) },
        { provide: JETSTREAM_MANAGER, inject: [NATS_CONNECTION], useFactory: (nc: NatsConnection) => jetstreamManager(nc) },
        {
          provide: NatsReadinessProbe,
          inject: [NATS_CONNECTION, JETSTREAM_MANAGER],
          useFactory: (nc: NatsConnection, jsm: JetStreamManager) => new NatsReadinessProbe(nc, jsm),
        },
      ],
      exports: [NATS_CONNECTION, JETSTREAM, JETSTREAM_MANAGER, NatsReadinessProbe],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.nc.isClosed()) await this.nc.drain();
  }
}
