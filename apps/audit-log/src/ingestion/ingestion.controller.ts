import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import type { JsMsg } from '@nats-io/jetstream';
import { JETSTREAM_TRANSPORT, JetStreamContext } from '@llm-stream/nest-kit';
import type { Settlement } from '@llm-stream/pipeline';
import { AUDIT_CONSUMERS } from './audit-consumers.js';
import { IngestionService } from './ingestion.service.js';

/** The audit log's two durable consumers, in batches from the JetStream transport: each batch is stored, then settled. */
@Controller()
export class IngestionController {
  constructor(private readonly ingestion: IngestionService) {}

  @EventPattern<typeof AUDIT_CONSUMERS.events>(AUDIT_CONSUMERS.events, JETSTREAM_TRANSPORT)
  events(@Payload() batch: readonly JsMsg[], @Ctx() context: JetStreamContext): Promise<Settlement[]> {
    return this.ingestion.storeEvents(batch, context.stopping);
  }

  @EventPattern<typeof AUDIT_CONSUMERS.raw>(AUDIT_CONSUMERS.raw, JETSTREAM_TRANSPORT)
  raw(@Payload() batch: readonly JsMsg[], @Ctx() context: JetStreamContext): Promise<Settlement[]> {
    return this.ingestion.storeRaw(batch, context.stopping);
  }
}
