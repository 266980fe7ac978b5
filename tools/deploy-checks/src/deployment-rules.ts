import { getRoutes, type AppFacts, type SettingValue } from './app-facts.js';
import type { KubeObject } from './kustomize.js';
import { ofKind, preStopSeconds, resolveEnv, resolvePort, selects, envNames, type Container, type ResolvedEnv, type Workload } from './workloads.js';

/** Variables read by Node.js or the OpenTelemetry SDK rather than by the app's config class. */
export function isRuntimeVariable(name: string): boolean {
  return name === 'NODE_ENV' || name === 'NODE_OPTIONS' || name.startsWith('OTEL_');
}

/** Values that must never be written in a manifest: they come from a Secret (secretKeyRef). */
export const SECRET_VARIABLE = /KEY|SECRET|PASSWORD|TOKEN|DATABASE_URL/;

/**
 * Settings whose default only suits a laptop: a Deployment must set them. NATS_URL defaults to loopback;
 * without NATS_USER and NATS_PASSWORD a service connects anonymously, which a server with authorization refuses;
 * without GATEWAY_API_KEYS every request is refused; without AUDIT_DATABASE_URL or an AUDIT_SQLITE_PATH of its
 * own (on a volume: the audit-store rule checks which) the audit log writes SQLite inside the pod; without GATEWAY_ID a restarted gateway gets a random id instead of its pod name; the
 * replay provider binds loopback by default.
 */
export const REQUIRED_IN_CLUSTER: Readonly<Record<string, readonly (string | readonly string[])[]>> = {
  gateway: ['NATS_URL', 'NATS_USER', 'NATS_PASSWORD', 'GATEWAY_API_KEYS', 'GATEWAY_ID'],
  normalizer: ['NATS_URL', 'NATS_USER', 'NATS_PASSWORD'],
  'audit-log': ['NATS_URL', 'NATS_USER', 'NATS_PASSWORD', 'GATEWAY_API_KEYS', ['AUDIT_DATABASE_URL', 'AUDIT_SQLITE_PATH']],
  'replay-provider': ['REPLAY_HOST'],
};

/** Health routes each probe must use when the app serves them (liveness must not depend on NATS). */
const PROBE_ROUTES = { liveness: '/health/live', readiness: '/health/ready' } as const;
const MARGIN_MS = 5_000;

export function effective(env: ResolvedEnv, facts: AppFacts, name: string): SettingValue | undefined {
  return env.literal[name] ?? facts.config?.settings[name];
}

/** The values a checked environment is given for what comes from Secrets and the downward API. */
export interface ValueSources {
  /** Secret name → key → value (the dev overlay's example Secrets, or stand-ins). */
  readonly secrets: Readonly<Record<string, Readonly<Record<string, string>>>>;
  readonly podName: string;
}

/** The environment the container gets, as strings, for the app's own validation. */
export function containerEnvironment(env: ResolvedEnv, sources: ValueSources): { env: Record<string, string>; problems: string[] } {
  const result: Record<string, string> = { ...env.literal };
  const problems: string[] = [];
  for (const [name, ref] of Object.entries(env.secret)) {
    const value = sources.secrets[ref.name]?.[ref.key];
    if (value !== undefined) result[name] = value;
    else if (!ref.optional) problems.push(`${name}: no value for Secret ${ref.name} key ${ref.key}`);
  }
  for (const [name, path] of Object.entries(env.field)) {
    if (path === 'metadata.name') result[name] = sources.podName;
    else problems.push(`${name}: fieldRef ${path} is not one the checks can stand in for`);
  }
  return { env: result, problems };
}

/** Compares one Deployment (or StatefulSet) running an llm-stream app with what the app reads and serves. */
export function checkWorkload(objects: readonly KubeObject[], workload: Workload, container: Container, facts: AppFacts): string[] {
  const problems: string[] = [];
  const where = `${workload.kind}/${workload.metadata.name}`;
  const report = (message: string): void => {
    problems.push(`${where}: ${message}`);
  };
  if (facts.config === null) return [`${where}: apps/${facts.app} has no built config class to compare with`];
  if (facts.globalPrefix) report('main.js sets a global route prefix: the route list is incomplete');

  const env = resolveEnv(objects, container);
  env.problems.forEach(report);
  const known = new Set(Object.keys(facts.config.settings));
  for (const name of envNames(env)) {
    if (!known.has(name) && !isRuntimeVariable(name)) report(`sets ${name}, which ${facts.config.className ?? facts.config.source} does not read`);
  }
  const config = facts.config;
  const isSet = (name: string): boolean => {
    const literal = env.literal[name];
    return literal !== undefined ? literal !== '' && literal !== String(config.settings[name]) : name in env.secret || name in env.field;
  };
  for (const required of REQUIRED_IN_CLUSTER[facts.app] ?? []) {
    const names = typeof required === 'string' ? [required] : required;
    if (!names.some(isSet)) report(`must set ${names.join(' or ')} (its default only suits a local run)`);
    for (const name of names) if (env.secret[name]?.optional === true) report(`${name} must not be optional`);
  }
  for (const name of Object.keys(env.literal)) {
    if (SECRET_VARIABLE.test(name)) report(`${name} is written in the manifest: take it from a Secret (secretKeyRef)`);
  }

  const hostSetting = facts.portSetting.replace(/PORT$/, 'HOST');
  const host = String(effective(env, facts, hostSetting) ?? '');
  if (host !== '0.0.0.0' && host !== '::') report(`${hostSetting}=${host}: the app must listen on all interfaces in a pod`);

  const port = Number(effective(env, facts, facts.portSetting));
  const http = container.ports?.find((candidate) => candidate.name === 'http');
  if (http?.containerPort !== port) report(`container port "http" is ${String(http?.containerPort)}, the app listens on ${String(port)} (${facts.portSetting})`);

  const routes = new Set(getRoutes(facts));
  const probes = { liveness: container.livenessProbe, readiness: container.readinessProbe, startup: container.startupProbe } as const;
  for (const [kind, probe] of Object.entries(probes)) {
    if (probe === undefined) {
      if (kind !== 'startup') report(`has no ${kind} probe`);
      continue;
    }
    const httpGet = probe.httpGet;
    if (httpGet === undefined) {
      report(`${kind} probe is not an HTTP GET`);
      continue;
    }
    if (resolvePort(container, httpGet.port) !== port) report(`${kind} probe port ${String(httpGet.port)} is not the app's port ${String(port)}`);
    if (httpGet.path === undefined || !routes.has(httpGet.path)) report(`${kind} probe path ${String(httpGet.path)} is not a GET route of the app`);
    const expected = kind === 'startup' ? PROBE_ROUTES.liveness : PROBE_ROUTES[kind as 'liveness' | 'readiness'];
    if (routes.has(expected) && httpGet.path !== expected) report(`${kind} probe must use ${expected}`);
  }

  const annotations = workload.spec.template.metadata?.annotations ?? {};
  if (annotations['prometheus.io/scrape'] === 'true') {
    if (Number(annotations['prometheus.io/port']) !== port) report(`prometheus.io/port ${String(annotations['prometheus.io/port'])} is not ${String(port)}`);
    if (!routes.has(annotations['prometheus.io/path'] ?? '/metrics')) report(`prometheus.io/path ${String(annotations['prometheus.io/path'])} is not served`);
  }

  for (const service of ofKind<KubeObject & { spec: { selector?: Record<string, string>; ports?: { name?: string; targetPort?: number | string }[] } }>(objects, 'Service')) {
    if (!selects({ matchLabels: service.spec.selector ?? { '': '' } }, workload.spec.template.metadata?.labels)) continue;
    for (const servicePort of service.spec.ports ?? []) {
      const target = servicePort.targetPort === undefined ? undefined : resolvePort(container, servicePort.targetPort);
      if (target !== port) report(`Service/${service.metadata.name} port ${servicePort.name ?? ''} targets ${String(servicePort.targetPort)}, not the app's port`);
    }
  }

  const drain = facts.config.settings['SHUTDOWN_DRAIN_MS'] === undefined ? 0 : Number(effective(env, facts, 'SHUTDOWN_DRAIN_MS'));
  const grace = (workload.spec.template.spec.terminationGracePeriodSeconds ?? 30) * 1000;
  const needed = preStopSeconds(container) * 1000 + drain + MARGIN_MS;
  if (grace < needed) report(`terminationGracePeriodSeconds ${String(grace / 1000)} s is shorter than preStop + SHUTDOWN_DRAIN_MS + ${String(MARGIN_MS / 1000)} s (${String(needed / 1000)} s)`);
  return problems;
}

/** The container of a workload that runs an llm-stream app, with that app's name. */
export function appContainers(objects: readonly KubeObject[], appOf: (image: string) => string | undefined): { workload: Workload; container: Container; app: string }[] {
  const found: { workload: Workload; container: Container; app: string }[] = [];
  for (const workload of objects.filter((object): object is Workload => object.kind === 'Deployment' || object.kind === 'StatefulSet')) {
    for (const container of workload.spec.template.spec.containers) {
      const app = appOf(container.image);
      if (app !== undefined) found.push({ workload, container, app });
    }
  }
  return found;
}

