import { Module } from '@nestjs/common';
import { ApiKeyGuard } from '@llm-stream/nest-kit';
import { NormalizerPresenceController } from './normalizer-presence.controller.js';
import { StreamControlController } from './stream-control.controller.js';
import { StreamObserverService } from './stream-observer.service.js';
import { StreamRegistry } from './stream-registry.service.js';
import { StreamsController } from './streams.controller.js';
import { StreamsService } from './streams.service.js';

@Module({
  controllers: [StreamsController, StreamControlController, NormalizerPresenceController],
  providers: [StreamsService, StreamRegistry, StreamObserverService, ApiKeyGuard],
  exports: [StreamRegistry],
})
export class StreamsModule {}
