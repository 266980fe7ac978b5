import type { AppFacts } from './app-facts.js';
import { effective } from './deployment-rules.js';
import type { KubeObject } from './kustomize.js';
import { find, ofKind, quantity, resolveEnv, selects, type Container, type JobObject, type PodTemplate, type Workload } from './workloads.js';

/** Settings every service applies to the JetStream streams at start: they must agree, or they flap. */
export const SHARED_SETTINGS = ['NATS_URL', 'JETSTREAM_REPLICAS', 'RAW_RETENTION_HOURS', 'EVENTS_RETENTION_HOURS'] as const;

export interface RunningApp {
  readonly workload: Workload;
  readonly container: Container;
  readonly facts: AppFacts;
}

interface ServiceObject extends KubeObject {
  readonly spec: { readonly selector?: Record<string, string>; readonly clusterIP?: string; readonly publishNotReadyAddresses?: boolean; readonly ports?: readonly { readonly port: number }[] };
}

/** Rules across the objects of one overlay. */
export function checkCluster(objects: readonly KubeObject[], apps: readonly RunningApp[], options: { readonly namespace: string; readonly jetstreamReplicas?: number }): string[] {
  const problems: string[] = [];
  const nats = find<Workload>(objects, 'StatefulSet', 'nats');
  const services = ofKind<ServiceObject>(objects, 'Service');

  // One value of each shared setting across the services.
  for (const setting of SHARED_SETTINGS) {
    const values = new Map<string, string[]>();
    for (const { workload, container, facts } of apps) {
      if (facts.config?.settings[setting] === undefined) continue;
      const value = String(effective(resolveEnv(objects, container), facts, setting));
      values.set(value, [...(values.get(value) ?? []), workload.metadata.name]);
    }
    if (values.size > 1) problems.push(`${setting} differs between services: ${[...values].map(([value, names]) => `${names.join(', ')}=${value}`).join('; ')}`);
    if (setting === 'NATS_URL') for (const url of [...values.keys()].flatMap((value) => value.split(','))) problems.push(...checkNatsUrl(url, services, nats));
    if (setting === 'JETSTREAM_REPLICAS') {
      for (const value of values.keys()) {
        const replicas = Number(value);
        if (nats !== undefined && replicas > (nats.spec.replicas ?? 1)) problems.push(`JETSTREAM_REPLICAS=${value} exceeds the ${String(nats.spec.replicas)} NATS pods`);
        if (options.jetstreamReplicas !== undefined && replicas !== options.jetstreamReplicas) problems.push(`JETSTREAM_REPLICAS=${value}, expected ${String(options.jetstreamReplicas)}`);
      }
    }
  }

  // Base URLs that point into the cluster name a Service that exists on that port.
  for (const { container, facts } of apps) {
    const env = resolveEnv(objects, container);
    for (const [name, value] of Object.entries(env.literal)) {
      if (!name.endsWith('_BASE_URL')) continue;
      const url = new URL(value);
      if (url.hostname.includes('.')) continue;
      const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
      if (!services.some((service) => service.metadata.name === url.hostname && service.spec.ports?.some((candidate) => candidate.port === port))) {
        problems.push(`${facts.app} ${name}=${value}: no Service ${url.hostname} on port ${String(port)}`);
      }
    }
  }

  for (const object of objects) {
    if (object.kind === 'Namespace') continue;
    if (object.metadata.namespace !== options.namespace) problems.push(`${object.kind}/${object.metadata.name} is in namespace ${String(object.metadata.namespace)}, not ${options.namespace}`);
  }
  const namespace = find(objects, 'Namespace', options.namespace);
  if (namespace?.metadata.labels?.['pod-security.kubernetes.io/enforce'] !== 'restricted') {
    problems.push(`Namespace ${options.namespace} must be rendered and enforce the restricted Pod Security Standard`);
  }

  for (const workload of objects.filter((object): object is Workload => object.kind === 'Deployment' || object.kind === 'StatefulSet')) {
    if (!selects(workload.spec.selector, workload.spec.template.metadata?.labels)) problems.push(`${workload.kind}/${workload.metadata.name}: the selector does not match the pod template`);
    problems.push(...checkPodSpec(`${workload.kind}/${workload.metadata.name}`, workload.spec.template));
  }
  // A Job's selector is the one Kubernetes generates; its pod is held to the same profile.
  for (const job of ofKind<JobObject>(objects, 'Job')) problems.push(...checkPodSpec(`Job/${job.metadata.name}`, job.spec.template, { probes: false }));
  problems.push(...checkAutoscaling(objects), ...checkDisruptionBudgets(objects));
  if (nats === undefined) problems.push('no NATS StatefulSet');
  else problems.push(...checkNats(objects, nats));
  return problems;
}

function checkNatsUrl(url: string, services: readonly ServiceObject[], nats: Workload | undefined): string[] {
  const match = /^(nats|tls):\/\/([^:/]+):(\d+)$/.exec(url);
  if (match === null) return [`NATS_URL ${url}: expected nats://<service>:<port>`];
  const [, , host, port] = match;
  const service = services.find((candidate) => candidate.metadata.name === host);
  if (service === undefined || !service.spec.ports?.some((candidate) => candidate.port === Number(port))) return [`NATS_URL ${url}: no Service ${String(host)} on port ${String(port)}`];
  if (nats === undefined || !selects({ matchLabels: service.spec.selector ?? { '': '' } }, nats.spec.template.metadata?.labels)) return [`NATS_URL ${url}: Service ${String(host)} does not select the NATS pods`];
  return [];
}

/**
 * Resources, probes and the restricted security profile, for every container of a pod template (init containers
 * too: the Pod Security Standard holds them to it; they run to completion, so they need no probes, nor do a
 * Job's containers).
 */
function checkPodSpec(where: string, template: PodTemplate, options: { readonly probes: boolean } = { probes: true }): string[] {
  const problems: string[] = [];
  const pod = template.spec;
  if (pod.securityContext?.runAsNonRoot !== true) problems.push(`${where}: pod securityContext.runAsNonRoot must be true`);
  if (pod.securityContext?.seccompProfile?.type !== 'RuntimeDefault') problems.push(`${where}: pod seccompProfile must be RuntimeDefault`);
  if (pod.automountServiceAccountToken !== false) problems.push(`${where}: no service account token is needed (automountServiceAccountToken: false)`);
  const containers = [...pod.containers.map((container) => ({ container, probes: options.probes })), ...(pod.initContainers ?? []).map((container) => ({ container, probes: false }))];
  for (const { container, probes } of containers) {
    const name = `${where} container ${container.name}`;
    for (const resource of ['cpu', 'memory']) {
      const request = container.resources?.requests?.[resource];
      const limit = container.resources?.limits?.[resource];
      if (request === undefined || limit === undefined) problems.push(`${name}: needs a ${resource} request and limit`);
      else if (!(quantity(request) <= quantity(limit))) problems.push(`${name}: ${resource} request ${String(request)} exceeds limit ${String(limit)}`);
    }
    if (probes && (container.livenessProbe === undefined || container.readinessProbe === undefined)) problems.push(`${name}: needs liveness and readiness probes`);
    const security = container.securityContext;
    if (security?.allowPrivilegeEscalation !== false) problems.push(`${name}: allowPrivilegeEscalation must be false`);
    if (!(security?.capabilities?.drop ?? []).includes('ALL')) problems.push(`${name}: must drop ALL capabilities`);
    if (security?.readOnlyRootFilesystem !== true) problems.push(`${name}: the root filesystem must be read-only`);
    const tag = /:([^:/@]+)$/.exec(container.image)?.[1];
    if (tag === undefined || tag === 'latest') problems.push(`${name}: image ${container.image} needs a pinned tag`);
  }
  return problems;
}

interface Autoscaler extends KubeObject {
  readonly spec: {
    readonly scaleTargetRef: { readonly kind: string; readonly name: string };
    readonly minReplicas?: number;
    readonly maxReplicas: number;
    readonly metrics?: readonly { readonly type: string; readonly resource?: { readonly name: string } }[];
  };
}

/** The gateway and the normalizer scale on CPU; the autoscaler alone owns their replica count. */
function checkAutoscaling(objects: readonly KubeObject[]): string[] {
  const problems: string[] = [];
  for (const name of ['gateway', 'normalizer']) {
    const hpa = ofKind<Autoscaler>(objects, 'HorizontalPodAutoscaler').find((candidate) => candidate.spec.scaleTargetRef.kind === 'Deployment' && candidate.spec.scaleTargetRef.name === name);
    const target = find<Workload>(objects, 'Deployment', name);
    if (hpa === undefined || target === undefined) {
      problems.push(`Deployment/${name} needs a HorizontalPodAutoscaler`);
      continue;
    }
    if (!hpa.spec.metrics?.some((metric) => metric.type === 'Resource' && metric.resource?.name === 'cpu')) problems.push(`HorizontalPodAutoscaler/${hpa.metadata.name}: scale on CPU`);
    if ((hpa.spec.minReplicas ?? 1) > hpa.spec.maxReplicas) problems.push(`HorizontalPodAutoscaler/${hpa.metadata.name}: minReplicas > maxReplicas`);
    if (target.spec.replicas !== undefined) problems.push(`Deployment/${name}: no spec.replicas (an apply would reset what the autoscaler chose)`);
    for (const container of target.spec.template.spec.containers) {
      if (container.resources?.requests?.['cpu'] === undefined) problems.push(`Deployment/${name}: CPU utilization needs a CPU request`);
    }
  }
  return problems;
}

interface DisruptionBudget extends KubeObject {
  readonly spec: { readonly selector: { readonly matchLabels?: Record<string, string> }; readonly minAvailable?: number | string; readonly maxUnavailable?: number | string };
}

function checkDisruptionBudgets(objects: readonly KubeObject[]): string[] {
  const problems: string[] = [];
  const budgets = ofKind<DisruptionBudget>(objects, 'PodDisruptionBudget');
  for (const [kind, name] of [['Deployment', 'gateway'], ['Deployment', 'normalizer'], ['Deployment', 'audit-log'], ['StatefulSet', 'nats']] as const) {
    const workload = find<Workload>(objects, kind, name);
    const budget = budgets.find((candidate) => selects(candidate.spec.selector, workload?.spec.template.metadata?.labels));
    if (workload === undefined || budget === undefined) problems.push(`${kind}/${name} needs a PodDisruptionBudget`);
    // minAvailable equal to the replica count would block every node drain.
    else if (budget.spec.maxUnavailable === undefined) problems.push(`PodDisruptionBudget/${budget.metadata.name}: use maxUnavailable (it works with one replica too)`);
  }
  return problems;
}

/** The NATS cluster: routes to every pod through the headless Service, JetStream on a volume. */
function checkNats(objects: readonly KubeObject[], nats: Workload): string[] {
  const problems: string[] = [];
  const replicas = nats.spec.replicas ?? 1;
  if (replicas < 3 || replicas % 2 === 0) problems.push(`StatefulSet/nats: ${String(replicas)} replicas; JetStream needs an odd number, at least 3, to keep a quorum through a restart`);
  const headless = find<ServiceObject>(objects, 'Service', nats.spec.serviceName ?? '');
  if (headless?.spec.clusterIP !== 'None' || headless.spec.publishNotReadyAddresses !== true) {
    problems.push(`StatefulSet/nats: serviceName must be a headless Service that publishes not-ready pods (the cluster forms before readiness)`);
  }
  const config = ofKind<KubeObject & { data?: Record<string, string> }>(objects, 'ConfigMap').find((candidate) => candidate.data?.['nats.conf'] !== undefined);
  const text = config?.data?.['nats.conf'] ?? '';
  const routes = [...text.matchAll(/nats:\/\/([a-z0-9.-]+):6222/g)].map((match) => match[1] ?? '');
  const expected = Array.from({ length: replicas }, (_, index) => `${nats.metadata.name}-${String(index)}.${nats.spec.serviceName ?? ''}`);
  if (JSON.stringify(routes) !== JSON.stringify(expected)) problems.push(`nats.conf routes ${routes.join(', ')} must be ${expected.join(', ')}`);
  if (!/^\s*jetstream\s*\{/m.test(text)) problems.push('nats.conf: JetStream is not enabled');
  const maxFileStore = /max_file_store:\s*(\d+)\s*([KMGT]B)?/.exec(text);
  const claims = (nats.spec as { volumeClaimTemplates?: { spec: { resources: { requests: { storage: string } } } }[] }).volumeClaimTemplates ?? [];
  const storage = claims[0]?.spec.resources.requests.storage;
  if (storage === undefined) problems.push('StatefulSet/nats: JetStream needs a volume per pod (volumeClaimTemplates)');
  else if (maxFileStore !== null) {
    const bytes = Number(maxFileStore[1]) * ({ KB: 2 ** 10, MB: 2 ** 20, GB: 2 ** 30, TB: 2 ** 40 }[maxFileStore[2] ?? ''] ?? 1);
    if (bytes > quantity(storage)) problems.push(`nats.conf max_file_store exceeds the ${storage} volume`);
  }
  return problems;
}
