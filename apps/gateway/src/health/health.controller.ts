import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiLiveResponse, ApiReadinessResponses, readiness, type Readiness } from '@llm-stream/nest-kit';
import { NatsReadinessProbe } from '@llm-stream/pipeline';
import { StreamRegistry } from '../streams/stream-registry.service.js';

/**
 * Kubernetes probes: live while the process serves HTTP; ready while NATS and JetStream answer and it accepts
 * streams (not draining, and admission control would admit one: below MAX_OPEN_STREAMS and the lag bound).
 */
@ApiTags('operations')
@Controller('health')
export class HealthController {
  constructor(
    private readonly nats: NatsReadinessProbe,
    private readonly registry: StreamRegistry,
  ) {}

  @Get('live')
  @ApiLiveResponse()
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiReadinessResponses()
  async ready(): Promise<Readiness> {
    return readiness({
      ...(await this.nats.check()),
      accepting: this.registry.isAccepting ? 'ok' : 'draining',
      admission: this.registry.refusal() === undefined ? 'ok' : 'overloaded',
    });
  }
}
