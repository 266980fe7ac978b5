import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { ensurePipelineStreams } from '@llm-stream/client';
import { AuditConfig } from '../config/audit-config.js';
import { JETSTREAM, JETSTREAM_MANAGER, NATS_CONNECTION } from './nats-tokens.js';

/** One NATS connection per process; the pipeline's streams are ensured before anything uses it. */
@Global()
@Module({
  providers: [
    {
      provide: NATS_CONNECTION,
      inject: [AuditConfig],
      useFactory: async (config: AuditConfig): Promise<NatsConnection> => {
        const nc = await connect({
          servers: config.NATS_URL.split(','),
          name: 'llm-stream-audit-log',
          maxReconnectAttempts: -1,
          reconnectTimeWait: 500,
        });
        const jsm = await jetstreamManager(nc);
        await ensurePipelineStreams(jsm, {
          replicas: config.JETSTREAM_REPLICAS,
          rawMaxAgeMs: config.RAW_RETENTION_HOURS * 3_600_000,
          eventsMaxAgeMs: config.EVENTS_RETENTION_HOURS * 3_600_000,
          duplicateWindowMs: 120_000,
        });
        return nc;
      },
    },
    { provide: JETSTREAM, inject: [NATS_CONNECTION], useFactory: (nc: NatsConnection): JetStreamClient => jetstream(nc) },
    {
      provide: JETSTREAM_MANAGER,
      inject: [NATS_CONNECTION],
      useFactory: (nc: NatsConnection): Promise<JetStreamManager> => jetstreamManager(nc),
    },
  ],
  exports: [NATS_CONNECTION, JETSTREAM, JETSTREAM_MANAGER],
})
export class NatsModule implements OnApplicationShutdown {
  constructor(@Inject(NATS_CONNECTION) private readonly nc: NatsConnection) {}

  /** Drain last: in-flight publishes are flushed before the connection closes. */
  async onApplicationShutdown(): Promise<void> {
    if (!this.nc.isClosed()) await this.nc.drain();
  }
}
