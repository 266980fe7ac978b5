import type { KubeObject } from './kustomize.js';
import { ofKind, selects, type LabelSelector } from './workloads.js';

/**
 * NetworkPolicy semantics (https://kubernetes.io/docs/concepts/services-networking/network-policies/),
 * enough to ask "may A open a connection to B on this port?" of a rendered overlay: a pod selected by no
 * policy of a direction is open in that direction; otherwise one rule of one selecting policy must allow
 * the peer and the port, at the source (egress) and at the destination (ingress).
 */
export interface Endpoint {
  readonly namespace: string;
  readonly namespaceLabels: Readonly<Record<string, string>>;
  /** A pod's labels; absent for an address outside the cluster. */
  readonly podLabels?: Readonly<Record<string, string>>;
  readonly ip: string;
}

interface Peer {
  readonly podSelector?: LabelSelector;
  readonly namespaceSelector?: LabelSelector;
  readonly ipBlock?: { readonly cidr: string; readonly except?: readonly string[] };
}

interface Rule {
  readonly from?: readonly Peer[];
  readonly to?: readonly Peer[];
  readonly ports?: readonly { readonly protocol?: string; readonly port?: number | string; readonly endPort?: number }[];
}

interface Policy extends KubeObject {
  readonly spec: { readonly podSelector: LabelSelector; readonly policyTypes?: readonly string[]; readonly ingress?: readonly Rule[]; readonly egress?: readonly Rule[] };
}

function ipNumber(ip: string): number {
  return ip.split('.').reduce((sum, part) => sum * 256 + Number(part), 0);
}

function inCidr(ip: string, cidr: string): boolean {
  const [base = '', bits = '32'] = cidr.split('/');
  const size = 2 ** (32 - Number(bits));
  const start = Math.floor(ipNumber(base) / size) * size;
  return ipNumber(ip) >= start && ipNumber(ip) < start + size;
}

function peerMatches(peer: Peer, policyNamespace: string, endpoint: Endpoint): boolean {
  if (peer.ipBlock) return inCidr(endpoint.ip, peer.ipBlock.cidr) && !(peer.ipBlock.except ?? []).some((cidr) => inCidr(endpoint.ip, cidr));
  if (endpoint.podLabels === undefined) return false;
  const namespaceOk = peer.namespaceSelector ? selects(peer.namespaceSelector, endpoint.namespaceLabels) : endpoint.namespace === policyNamespace;
  const podOk = peer.podSelector ? selects(peer.podSelector, endpoint.podLabels) : true;
  return namespaceOk && podOk;
}

function ruleAllows(rule: Rule, peers: readonly Peer[] | undefined, policyNamespace: string, peer: Endpoint, port: number, protocol: string): boolean {
  const peerOk = peers === undefined || peers.length === 0 || peers.some((candidate) => peerMatches(candidate, policyNamespace, peer));
  const portOk =
    rule.ports === undefined ||
    rule.ports.length === 0 ||
    rule.ports.some((candidate) => (candidate.protocol ?? 'TCP') === protocol && (candidate.port === undefined || (Number(candidate.port) <= port && port <= (candidate.endPort ?? Number(candidate.port)))));
  return peerOk && portOk;
}

function directionAllows(policies: readonly Policy[], direction: 'Ingress' | 'Egress', pod: Endpoint, peer: Endpoint, port: number, protocol: string): boolean {
  if (pod.podLabels === undefined) return true;
  const selecting = policies.filter(
    (policy) => policy.metadata.namespace === pod.namespace && selects(policy.spec.podSelector, pod.podLabels) && (policy.spec.policyTypes ?? ['Ingress']).includes(direction),
  );
  if (selecting.length === 0) return true;
  return selecting.some((policy) =>
    (direction === 'Ingress' ? (policy.spec.ingress ?? []) : (policy.spec.egress ?? [])).some((rule) =>
      ruleAllows(rule, direction === 'Ingress' ? rule.from : rule.to, policy.metadata.namespace ?? '', peer, port, protocol),
    ),
  );
}

/** Whether `source` may connect to `destination` on `port` under the overlay's NetworkPolicies. */
export function connectionAllowed(objects: readonly KubeObject[], source: Endpoint, destination: Endpoint, port: number, protocol = 'TCP'): boolean {
  const policies = ofKind<Policy>(objects, 'NetworkPolicy');
  return directionAllows(policies, 'Egress', source, destination, port, protocol) && directionAllows(policies, 'Ingress', destination, source, port, protocol);
}
