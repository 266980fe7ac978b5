import { Module } from '@nestjs/common';
import { JETSTREAM_CONSUMERS, jetStreamTransportProvider } from '@llm-stream/nest-kit';
import { NormalizerConfig } from '../config/normalizer-config.js';
import { GatewayLeaseController } from './gateway-lease.controller.js';
import { GatewayLeaseService } from './gateway-lease.service.js';
import { NormalizerPresenceService } from './normalizer-presence.service.js';
import { StreamObserverService } from './stream-observer.service.js';
import { StreamWorkersService } from './stream-workers.service.js';
import { workConsumer } from './work-consumer.js';
import { WorkItemController } from './work-item.controller.js';

@Module({
  controllers: [GatewayLeaseController, WorkItemController],
  providers: [
    { provide: JETSTREAM_CONSUMERS, inject: [NormalizerConfig], useFactory: (config: NormalizerConfig) => [workConsumer(config)] },
    jetStreamTransportProvider,
    GatewayLeaseService,
    NormalizerPresenceService,
    StreamObserverService,
    StreamWorkersService,
  ],
})
export class NormalizationModule {}
