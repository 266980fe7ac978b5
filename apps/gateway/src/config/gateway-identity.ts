import { randomBytes } from 'node:crypto';

/** This instance's id in leases and raw traces: GATEWAY_ID (the pod name on Kubernetes) or a random one. */
export class GatewayIdentity {
  readonly id: string;

  constructor(configured: string) {
    this.id = configured !== '' ? configured : `gw-${randomBytes(6).toString('hex')}`;
  }
}
