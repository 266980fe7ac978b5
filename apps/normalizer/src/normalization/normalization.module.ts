import { Module } from '@nestjs/common';
import { GatewayLeaseService } from './gateway-lease.service.js';
import { StreamObserverService } from './stream-observer.service.js';
import { WorkConsumerService } from './work-consumer.service.js';

@Module({
  providers: [GatewayLeaseService, StreamObserverService, WorkConsumerService],
})
export class NormalizationModule {}
