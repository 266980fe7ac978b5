import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import type { JsMsg } from '@nats-io/jetstream';
import { JETSTREAM_TRANSPORT } from '@llm-stream/nest-kit';
import type { Settlement } from '@llm-stream/pipeline';
import { StreamWorkersService } from './stream-workers.service.js';
import { WORK_CONSUMER } from './work-consumer.js';

/** Work items (one per stream) from LLM_WORK, delivered by the JetStream transport: each one starts its stream's worker. */
@Controller()
export class WorkItemController {
  constructor(private readonly workers: StreamWorkersService) {}

  @EventPattern(WORK_CONSUMER, JETSTREAM_TRANSPORT)
  take(@Payload() message: JsMsg): Settlement {
    return this.workers.take(message);
  }
}
