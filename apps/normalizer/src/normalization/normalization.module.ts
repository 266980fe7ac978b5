import { Module } from '@nestjs/common';
import { GatewayLeaseController } from './gateway-lease.controller.js';
import { GatewayLeaseService } from './gateway-lease.service.js';
import { StreamObserverService } from './stream-observer.service.js';
import { WorkConsumerService } from './work-consumer.service.js';

@Module({
  controllers: [GatewayLeaseController],
  providers: [GatewayLeaseService, StreamObserverService, WorkConsumerService],
})
export class NormalizationModule {}
