import type { KubeObject } from './kustomize.js';
import { NATS_SERVICES } from './nats-authorization-rules.js';
import { cliArguments, option, secretKeyAt } from './pod-paths.js';
import { appOfImage, find, ofKind, resolveEnv, type Container, type JobObject, type PodTemplate, type Workload } from './workloads.js';

/** The key of the CA certificate in a TLS Secret (as cert-manager writes it). */
export const CA_KEY = 'ca.crt';

/** Every container that connects to NATS: the services, their init containers, the provisioning Job. */
function clients(objects: readonly KubeObject[]): { where: string; template: PodTemplate; container: Container }[] {
  const found: { where: string; template: PodTemplate; container: Container }[] = [];
  for (const app of NATS_SERVICES) {
    const workload = find<Workload>(objects, 'Deployment', app);
    if (workload === undefined) continue;
    const { template } = workload.spec;
    for (const container of [...template.spec.containers, ...(template.spec.initContainers ?? [])]) {
      if (appOfImage(container.image) === app || cliArguments(container) !== null) found.push({ where: `Deployment/${app} container ${container.name}`, template, container });
    }
  }
  for (const job of ofKind<JobObject>(objects, 'Job')) {
    for (const container of job.spec.template.spec.containers) {
      if (cliArguments(container) !== null) found.push({ where: `Job/${job.metadata.name} container ${container.name}`, template: job.spec.template, container });
    }
  }
  return found;
}

/**
 * TLS to NATS on both ends or on neither: when the NATS pods' rendered authorization carries a certificate
 * (`nats-config --tls-cert --tls-key`), the server reads both from a Secret it mounts, and every client
 * verifies it with NATS_TLS_CA_FILE, a file of that Secret's ca.crt mounted in the client's own container.
 * Without a server certificate no client may set it (it would fail to connect to a plain server).
 */
export function checkNatsTls(objects: readonly KubeObject[]): string[] {
  const nats = find<Workload>(objects, 'StatefulSet', 'nats');
  if (nats === undefined) return ['no NATS StatefulSet'];
  const template = nats.spec.template;
  const server = template.spec.containers.find((candidate) => candidate.name === 'nats');
  const render = (template.spec.initContainers ?? []).find((candidate) => cliArguments(candidate)?.[0] === 'nats-config');
  if (server === undefined || render === undefined) return ['StatefulSet/nats: no nats container or no init container rendering the authorization'];
  const argv = cliArguments(render) ?? [];
  const problems: string[] = [];
  const certificate = option(argv, '--tls-cert');
  const key = option(argv, '--tls-key');
  if (option(argv, '--tls-ca') !== undefined) problems.push('StatefulSet/nats: --tls-ca requires client certificates, which no client here is given');
  let secretName: string | undefined;
  if (certificate !== undefined || key !== undefined) {
    const certificateFile = secretKeyAt(template, server, certificate);
    const keyFile = secretKeyAt(template, server, key);
    if (certificateFile === undefined || keyFile === undefined || certificateFile.secretName !== keyFile.secretName) {
      problems.push(`StatefulSet/nats: --tls-cert ${String(certificate)} and --tls-key ${String(key)} must be files of one Secret the nats container mounts`);
    }
    secretName = certificateFile?.secretName;
  }
  for (const { where, template: pod, container } of clients(objects)) {
    const caFile = resolveEnv(objects, container).literal['NATS_TLS_CA_FILE'];
    const ca = secretKeyAt(pod, container, caFile);
    if (secretName === undefined) {
      if (caFile !== undefined && caFile !== '') problems.push(`${where}: NATS_TLS_CA_FILE is set, but the NATS server has no certificate`);
    } else if (ca?.secretName !== secretName || ca.key !== CA_KEY) {
      problems.push(`${where}: NATS_TLS_CA_FILE must be the ${CA_KEY} of Secret ${secretName}, mounted in this container (got ${String(caFile)})`);
    }
  }
  return problems;
}
