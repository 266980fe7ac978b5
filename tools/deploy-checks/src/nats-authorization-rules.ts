import { posix } from 'node:path';
import { SHARED_SETTINGS } from './cluster-rules.js';
import type { KubeObject } from './kustomize.js';
import { cliArguments, option, secretKeyAt, volumeAt } from './pod-paths.js';
import { appOfImage, find, ofKind, resolveEnv, type Container, type JobObject, type PodTemplate, type Workload } from './workloads.js';

/** The Secret the operator makes from `llm-stream nats-credentials` (deploy/README.md, step 2). */
export const NATS_SECRET = 'llm-stream-nats';
/** Its key holding the credentials JSON itself; each service's password is under the service's name. */
export const CREDENTIALS_KEY = 'credentials.json';
/** The services, each its own NATS user named like its app. */
export const NATS_SERVICES = ['gateway', 'normalizer', 'audit-log'] as const;

/** What a container must agree on with the service it runs before: where and as whom it connects. */
const CONNECTION_VARIABLES = ['NATS_URL', 'NATS_USER', 'NATS_PASSWORD', 'NATS_TLS_CA_FILE', 'NATS_TLS_CERT_FILE', 'NATS_TLS_KEY_FILE'];

/** Whether a container path is the credentials JSON of the NATS Secret (a Secret volume, that key). */
function isCredentialsFile(template: PodTemplate, container: Container, path: string | undefined): boolean {
  const file = secretKeyAt(template, container, path);
  return file?.secretName === NATS_SECRET && file.key === CREDENTIALS_KEY;
}

/** How a container gets each connection variable (a literal, a Secret key), comparable across containers. */
function connection(objects: readonly KubeObject[], container: Container): Record<string, string> {
  const env = resolveEnv(objects, container);
  const sources: Record<string, string> = {};
  for (const name of CONNECTION_VARIABLES) {
    const literal = env.literal[name];
    const secret = env.secret[name];
    if (literal !== undefined && literal !== '') sources[name] = `value ${literal}`;
    else if (secret !== undefined) sources[name] = `Secret ${secret.name} key ${secret.key}${secret.optional ? ' (optional)' : ''}`;
  }
  return sources;
}

function checkService(objects: readonly KubeObject[], app: (typeof NATS_SERVICES)[number]): string[] {
  const workload = find<Workload>(objects, 'Deployment', app);
  if (workload === undefined) return [`Deployment/${app} is not rendered`];
  const where = `Deployment/${app}`;
  const container = workload.spec.template.spec.containers.find((candidate) => appOfImage(candidate.image) === app);
  if (container === undefined) return [`${where}: no container runs llm-stream/${app}`];
  const problems: string[] = [];
  const own = connection(objects, container);
  if (own['NATS_USER'] !== `value ${app}`) problems.push(`${where}: NATS_USER must be ${app} (its own NATS user), got ${own['NATS_USER'] ?? 'nothing'}`);
  if (own['NATS_PASSWORD'] !== `Secret ${NATS_SECRET} key ${app}`) {
    problems.push(`${where}: NATS_PASSWORD must come from Secret ${NATS_SECRET} key ${app}, got ${own['NATS_PASSWORD'] ?? 'nothing'}`);
  }
  const waits = (workload.spec.template.spec.initContainers ?? []).filter((candidate) => cliArguments(candidate)?.[0] === 'check-streams');
  const wait = waits[0];
  if (wait === undefined) return [...problems, `${where}: no init container waits for the streams (llm-stream check-streams --wait): the service would exit on streams_missing`];
  if (!(Number(option(cliArguments(wait) ?? [], '--wait')) > 0)) problems.push(`${where}: init container ${wait.name} must wait (--wait <seconds>), not check once`);
  const theirs = connection(objects, wait);
  if (JSON.stringify(theirs) !== JSON.stringify(own)) {
    problems.push(`${where}: init container ${wait.name} connects otherwise than the service: ${JSON.stringify(theirs)} vs ${JSON.stringify(own)}`);
  }
  return problems;
}

/** nats.conf includes the file the init container renders from the Secret, at the path the server resolves. */
function checkNatsServer(objects: readonly KubeObject[]): string[] {
  const nats = find<Workload>(objects, 'StatefulSet', 'nats');
  if (nats === undefined) return ['no NATS StatefulSet'];
  const template = nats.spec.template;
  const server = template.spec.containers.find((candidate) => candidate.name === 'nats');
  const render = (template.spec.initContainers ?? []).find((candidate) => cliArguments(candidate)?.[0] === 'nats-config');
  if (server === undefined) return ['StatefulSet/nats: no container nats'];
  if (render === undefined) return ['StatefulSet/nats: no init container renders the authorization (llm-stream nats-config)'];
  const argv = cliArguments(render) ?? [];
  const problems: string[] = [];
  if (!isCredentialsFile(template, render, option(argv, '--credentials'))) {
    problems.push(`StatefulSet/nats: init container ${render.name} must read --credentials from Secret ${NATS_SECRET} key ${CREDENTIALS_KEY}`);
  }
  const output = option(argv, '--output') ?? '';
  const rendered = volumeAt(template, render, output);
  if (rendered?.volume.emptyDir === undefined) return [...problems, `StatefulSet/nats: init container ${render.name} must write --output into an emptyDir (the passwords stay out of ConfigMaps)`];
  const serverMount = server.volumeMounts?.find((mount) => mount.name === rendered.volume.name);
  if (serverMount === undefined) return [...problems, `StatefulSet/nats: the nats container does not mount ${rendered.volume.name}, where the authorization is rendered`];
  const configPath = option([...(server.command ?? []), ...(server.args ?? [])], '--config') ?? '';
  const configFile = volumeAt(template, server, configPath);
  const configMap = configFile?.volume.configMap === undefined ? undefined : find<KubeObject & { data?: Record<string, string> }>(objects, 'ConfigMap', configFile.volume.configMap.name);
  const text = configMap?.data?.[configFile?.inside ?? ''];
  if (text === undefined) return [...problems, `StatefulSet/nats: --config ${configPath} is not a file of a rendered ConfigMap`];
  // nats-server resolves an include against the directory of the including file.
  const included = [...text.matchAll(/^\s*include\s+["']?([^"'\s]+)["']?\s*$/gm)].map((match) => posix.resolve(posix.dirname(configPath), match[1] ?? ''));
  const expected = posix.join(serverMount.mountPath, rendered.inside);
  if (!included.includes(expected)) problems.push(`nats.conf must include ${expected} (the rendered authorization), includes ${included.join(', ') || 'nothing'}`);
  return problems;
}

/** The provisioning Job: the CLI's provision with the Secret's credentials and the services' stream settings. */
function checkProvisioning(objects: readonly KubeObject[]): string[] {
  const jobs = ofKind<JobObject>(objects, 'Job').filter((job) => job.spec.template.spec.containers.some((container) => cliArguments(container)?.[0] === 'provision'));
  const job = jobs[0];
  if (job === undefined) return ['no Job runs llm-stream provision: nothing creates the streams the services wait for'];
  const where = `Job/${job.metadata.name}`;
  const container = job.spec.template.spec.containers.find((candidate) => cliArguments(candidate)?.[0] === 'provision');
  if (container === undefined) return [];
  const problems: string[] = [];
  if (!isCredentialsFile(job.spec.template, container, option(cliArguments(container) ?? [], '--credentials'))) {
    problems.push(`${where}: --credentials must be Secret ${NATS_SECRET} key ${CREDENTIALS_KEY}`);
  }
  if ((job.spec.backoffLimit ?? 6) < 1) problems.push(`${where}: backoffLimit must let it retry until NATS answers`);
  const restart = job.spec.template.spec.restartPolicy;
  if (restart !== 'OnFailure' && restart !== 'Never') problems.push(`${where}: restartPolicy must be OnFailure or Never`);
  const settings = resolveEnv(objects, container).literal;
  for (const app of NATS_SERVICES) {
    const service = find<Workload>(objects, 'Deployment', app)?.spec.template.spec.containers.find((candidate) => appOfImage(candidate.image) === app);
    if (service === undefined) continue;
    const theirs = resolveEnv(objects, service).literal;
    for (const setting of SHARED_SETTINGS) {
      if (settings[setting] !== theirs[setting]) problems.push(`${where}: ${setting}=${String(settings[setting])}, ${app} has ${String(theirs[setting])}`);
    }
  }
  return problems;
}

/**
 * NATS authorization as the manifests wire it: the server's accounts and users rendered from the credentials
 * Secret and included by nats.conf, the provisioning Job, and each service connecting as its own user with
 * an init container that waits, connected the same way, for the streams the Job creates.
 */
export function checkNatsAuthorization(objects: readonly KubeObject[]): string[] {
  return [...NATS_SERVICES.flatMap((app) => checkService(objects, app)), ...checkNatsServer(objects), ...checkProvisioning(objects)];
}
