import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { NORMALIZER_PRESENCE_SUBJECTS, decodeNormalizerPresence, presenceSubjectReplicaId } from '@llm-stream/contract';
import { CORE_NATS, CoreNatsContext } from '@llm-stream/nest-kit';
import { StreamRegistry } from './stream-registry.service.js';

/**
 * Every normalizer replica's presence (core NATS, `llm.normalizers.presence.<replica id>`): which adapters build it
 * runs.
 */
@Controller()
export class NormalizerPresenceController {
  constructor(private readonly registry: StreamRegistry) {}

  @EventPattern<typeof NORMALIZER_PRESENCE_SUBJECTS>(NORMALIZER_PRESENCE_SUBJECTS, CORE_NATS)
  heard(@Payload() data: string, @Ctx() context: CoreNatsContext): void {
    const replicaId = presenceSubjectReplicaId(context.subject);
    const presence = decodeNormalizerPresence(data);
    if (replicaId !== null && presence.ok) this.registry.normalizerHeard(replicaId, presence.value.adapters);
  }
}
