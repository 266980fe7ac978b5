import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { GATEWAY_LEASE_SUBJECTS, decodeGatewayLease, leaseSubjectGatewayId } from '@llm-stream/contract';
import { CORE_NATS, CoreNatsContext } from '@llm-stream/nest-kit';
import { GatewayLeaseService } from './gateway-lease.service.js';

/** Every gateway instance's lease renewals (core NATS, `llm.gateways.lease.<gateway instance id>`). */
@Controller()
export class GatewayLeaseController {
  constructor(private readonly leases: GatewayLeaseService) {}

  @EventPattern<typeof GATEWAY_LEASE_SUBJECTS>(GATEWAY_LEASE_SUBJECTS, CORE_NATS)
  renew(@Payload() data: string, @Ctx() context: CoreNatsContext): void {
    const gatewayId = leaseSubjectGatewayId(context.subject);
    if (gatewayId !== null && decodeGatewayLease(data).ok) this.leases.renewed(gatewayId);
  }
}
