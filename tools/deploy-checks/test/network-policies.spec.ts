import { repoRoot } from '@llm-stream/testing';
import { OVERLAYS, type KubeObject } from '../src/kustomize.js';
import { connectionAllowed, type Endpoint } from '../src/network-policy.js';
import { NAMESPACES, loadOverlay } from '../src/overlay-model.js';
import { find, type JobObject, type Workload } from '../src/workloads.js';

const root = repoRoot();

/** Who talks to whom, asked of the rendered NetworkPolicies. */
function endpoints(objects: readonly KubeObject[], namespace: string): Record<string, Endpoint> {
  const own = { namespace, namespaceLabels: { 'kubernetes.io/metadata.name': namespace } };
  const pod = (kind: string, name: string, ip: string): Endpoint => {
    const workload = find<Workload>(objects, kind, name);
    if (workload === undefined) throw new Error(`${kind}/${name} is not rendered`);
    return { ...own, podLabels: workload.spec.template.metadata?.labels ?? {}, ip };
  };
  const job = find<JobObject>(objects, 'Job', 'provision');
  if (job === undefined) throw new Error('Job/provision is not rendered');
  const outside = (ns: string, labels: Record<string, string>, ip: string): Endpoint => ({
    namespace: ns,
    namespaceLabels: { 'kubernetes.io/metadata.name': ns, ...labels },
    podLabels: { app: 'other' },
    ip,
  });
  const result: Record<string, Endpoint> = {
    gateway: pod('Deployment', 'gateway', '10.0.0.10'),
    normalizer: pod('Deployment', 'normalizer', '10.0.0.11'),
    audit: pod('Deployment', 'audit-log', '10.0.0.12'),
    nats: pod('StatefulSet', 'nats', '10.0.0.13'),
    provision: { ...own, podLabels: job.spec.template.metadata?.labels ?? {}, ip: '10.0.0.15' },
    client: outside('web', {}, '10.1.0.5'),
    backend: outside('backends', { 'llm-stream.io/backend': 'true' }, '10.1.0.6'),
    prometheus: outside('monitoring', { 'llm-stream.io/metrics': 'true' }, '10.1.0.7'),
    dns: { namespace: 'kube-system', namespaceLabels: { 'kubernetes.io/metadata.name': 'kube-system' }, podLabels: { 'k8s-app': 'kube-dns' }, ip: '10.96.0.10' },
    provider: { namespace: '', namespaceLabels: {}, ip: '162.159.140.245' },
    cloudMetadata: { namespace: '', namespaceLabels: {}, ip: '169.254.169.254' },
    database: { namespace: '', namespaceLabels: {}, ip: '198.51.100.7' },
  };
  if (find(objects, 'Deployment', 'replay-provider')) result['replay'] = pod('Deployment', 'replay-provider', '10.0.0.14');
  return result;
}

const COMMON: readonly (readonly [string, string, number, string, boolean])[] = [
  ['client', 'gateway', 8080, 'TCP', true],
  ['backend', 'gateway', 8080, 'TCP', true],
  ['client', 'normalizer', 8081, 'TCP', false],
  ['client', 'audit', 8082, 'TCP', false],
  ['client', 'nats', 4222, 'TCP', false],
  ['client', 'nats', 6222, 'TCP', false],
  ['backend', 'nats', 4222, 'TCP', true],
  ['backend', 'audit', 8082, 'TCP', true],
  ['prometheus', 'normalizer', 8081, 'TCP', true],
  ['prometheus', 'audit', 8082, 'TCP', true],
  ['prometheus', 'nats', 8222, 'TCP', true],
  ['prometheus', 'nats', 4222, 'TCP', false],
  ['gateway', 'nats', 4222, 'TCP', true],
  ['normalizer', 'nats', 4222, 'TCP', true],
  ['audit', 'nats', 4222, 'TCP', true],
  ['nats', 'nats', 6222, 'TCP', true],
  ['gateway', 'normalizer', 8081, 'TCP', false],
  ['normalizer', 'gateway', 8080, 'TCP', false],
  ['gateway', 'provider', 443, 'TCP', true],
  ['gateway', 'provider', 80, 'TCP', false],
  ['gateway', 'cloudMetadata', 443, 'TCP', false],
  ['normalizer', 'provider', 443, 'TCP', false],
  ['audit', 'provider', 443, 'TCP', false],
  ['nats', 'provider', 443, 'TCP', false],
  ['audit', 'database', 5432, 'TCP', true],
  ['gateway', 'database', 5432, 'TCP', false],
  ['normalizer', 'database', 5432, 'TCP', false],
  ['gateway', 'dns', 53, 'UDP', true],
  ['normalizer', 'dns', 53, 'UDP', true],
  ['audit', 'dns', 53, 'UDP', true],
  ['nats', 'dns', 53, 'UDP', true],
  // The provisioning Job reaches NATS and DNS, nothing else, and takes no connection.
  ['provision', 'nats', 4222, 'TCP', true],
  ['provision', 'dns', 53, 'UDP', true],
  ['provision', 'nats', 8222, 'TCP', false],
  ['provision', 'gateway', 8080, 'TCP', false],
  ['provision', 'audit', 8082, 'TCP', false],
  ['provision', 'provider', 443, 'TCP', false],
  ['provision', 'database', 5432, 'TCP', false],
  ['client', 'provision', 8080, 'TCP', false],
  ['gateway', 'provision', 8080, 'TCP', false],
];

describe.each(OVERLAYS)('overlay %s: NetworkPolicies', (overlay) => {
  const { objects } = loadOverlay(root, overlay);
  const parties = endpoints(objects, NAMESPACES[overlay]);
  const cases = [...COMMON];
  if (overlay === 'dev') cases.push(['gateway', 'replay', 8787, 'TCP', true], ['client', 'replay', 8787, 'TCP', false], ['replay', 'provider', 443, 'TCP', false]);

  it.each(cases)('%s -> %s port %s/%s allowed: %s', (from, to, port, protocol, allowed) => {
    const source = parties[from];
    const destination = parties[to];
    if (source === undefined || destination === undefined) throw new Error(`unknown party ${from} or ${to}`);
    expect(connectionAllowed(objects, source, destination, port, protocol)).toBe(allowed);
  });

  it('deny everything else by default', () => {
    const policy = find<KubeObject & { spec: { podSelector: object; policyTypes: string[] } }>(objects, 'NetworkPolicy', 'default-deny');
    expect(policy?.spec).toEqual({ podSelector: {}, policyTypes: ['Ingress', 'Egress'] });
  });
});
