import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { NatsReadinessProbe, connectPipeline } from '@llm-stream/pipeline';
import { natsSettings } from '@llm-stream/service-kit';
import { NormalizerConfig } from '../config/normalizer-config.js';
import { JETSTREAM, JETSTREAM_MANAGER, NATS_CONNECTION } from './nats-tokens.js';

/** One NATS connection per process; the pipeline's streams are ensured before anything uses it. */
@Global()
@Module({
  providers: [
    {
      provide: NATS_CONNECTION,
      inject: [NormalizerConfig],
      useFactory: (config: NormalizerConfig) => connectPipeline({ name: 'llm-stream-normalizer', ...natsSettings(config) }),
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
})
export class NatsModule implements OnApplicationShutdown {
  constructor(@Inject(NATS_CONNECTION) private readonly nc: NatsConnection) {}

  /** Drain last: in-flight publishes are flushed before the connection closes. */
  async onApplicationShutdown(): Promise<void> {
    if (!this.nc.isClosed()) await this.nc.drain();
  }
}
