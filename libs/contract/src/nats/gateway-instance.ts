/**
 * A gateway instance's id in leases, raw traces (`stream.open`, `gateway.shutdown`) and work items:
 * `<GATEWAY_ID>@<instance>`, where the instance part is random per process start. A gateway restarted with the
 * same GATEWAY_ID (a container restarted in its pod keeps the pod name) is a new instance: it renews its own
 * lease, never its dead predecessor's, so the predecessor's streams end `interrupted` when that lease expires
 * instead of being kept alive for good by the restarted process.
 */
export interface GatewayInstance {
  /** GATEWAY_ID: the configured name (the pod name on Kubernetes). */
  readonly name: string;
  /** Random per process start. */
  readonly instance: string;
}

const SEPARATOR = '@';
/** Letters, digits, `_` and `-` (GATEWAY_ID's own alphabet): the id stays one NATS subject token. */
const PART = /^[A-Za-z0-9_-]{1,64}$/;

export function gatewayInstanceId(instance: GatewayInstance): string {
  if (!PART.test(instance.name) || !PART.test(instance.instance)) throw new Error(`not a gateway instance: ${instance.name} / ${instance.instance}`);
  return `${instance.name}${SEPARATOR}${instance.instance}`;
}

/**
 * The parts of a gateway instance id; a bare name (written before instance ids existed) is its own name with
 * an empty instance.
 */
export function parseGatewayInstanceId(id: string): GatewayInstance {
  const at = id.lastIndexOf(SEPARATOR);
  return at < 0 ? { name: id, instance: '' } : { name: id.slice(0, at), instance: id.slice(at + 1) };
}
