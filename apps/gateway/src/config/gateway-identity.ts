import { randomBytes } from 'node:crypto';
import { gatewayInstanceId } from '@llm-stream/contract';

/**
 * This process's id in leases, raw traces and work items: `<name>@<instance>` (see `gatewayInstanceId`), where
 * the name is GATEWAY_ID (the pod name on Kubernetes; random when empty) and the instance is random per process
 * start. A gateway restarted under the same GATEWAY_ID is a new instance: it never renews the lease of the
 * process it replaces, whose streams therefore end interrupted instead of waiting forever.
 */
export class GatewayIdentity {
  readonly name: string;
  readonly instance: string;
  readonly id: string;

  constructor(configured: string, instance: string = randomBytes(4).toString('hex')) {
    this.name = configured !== '' ? configured : `gw-${randomBytes(6).toString('hex')}`;
    this.instance = instance;
    this.id = gatewayInstanceId({ name: this.name, instance });
  }
}
