import type { KubeObject } from './kustomize.js';

/** The parts of the Kubernetes types the checks read (the schema validators check the rest). */
export interface LabelSelector {
  readonly matchLabels?: Readonly<Record<string, string>>;
  readonly matchExpressions?: readonly { readonly key: string; readonly operator: string; readonly values?: readonly string[] }[];
}

export interface HttpProbe {
  readonly httpGet?: { readonly path?: string; readonly port: number | string };
}

export interface EnvVar {
  readonly name: string;
  readonly value?: string;
  readonly valueFrom?: {
    readonly secretKeyRef?: { readonly name: string; readonly key: string; readonly optional?: boolean };
    readonly configMapKeyRef?: { readonly name: string; readonly key: string; readonly optional?: boolean };
    readonly fieldRef?: { readonly fieldPath: string };
  };
}

export interface VolumeMount {
  readonly name: string;
  readonly mountPath: string;
  readonly readOnly?: boolean;
  readonly subPath?: string;
}

export interface Volume {
  readonly name: string;
  readonly secret?: { readonly secretName: string; readonly items?: readonly { readonly key: string; readonly path: string }[] };
  readonly configMap?: { readonly name: string; readonly items?: readonly { readonly key: string; readonly path: string }[] };
  readonly emptyDir?: { readonly medium?: string; readonly sizeLimit?: string };
  readonly persistentVolumeClaim?: { readonly claimName: string };
}

export interface Container {
  readonly name: string;
  readonly image: string;
  readonly command?: readonly string[];
  readonly args?: readonly string[];
  readonly volumeMounts?: readonly VolumeMount[];
  readonly ports?: readonly { readonly name?: string; readonly containerPort: number }[];
  readonly env?: readonly EnvVar[];
  readonly envFrom?: readonly { readonly configMapRef?: { readonly name: string }; readonly secretRef?: { readonly name: string } }[];
  readonly resources?: { readonly requests?: Readonly<Record<string, string | number>>; readonly limits?: Readonly<Record<string, string | number>> };
  readonly livenessProbe?: HttpProbe;
  readonly readinessProbe?: HttpProbe;
  readonly startupProbe?: HttpProbe;
  readonly lifecycle?: { readonly preStop?: { readonly exec?: { readonly command?: readonly string[] }; readonly sleep?: { readonly seconds: number } } };
  readonly securityContext?: {
    readonly allowPrivilegeEscalation?: boolean;
    readonly readOnlyRootFilesystem?: boolean;
    readonly runAsNonRoot?: boolean;
    readonly capabilities?: { readonly drop?: readonly string[] };
  };
}

export interface PodTemplate {
  readonly metadata?: { readonly labels?: Readonly<Record<string, string>>; readonly annotations?: Readonly<Record<string, string>> };
  readonly spec: {
    readonly containers: readonly Container[];
    readonly initContainers?: readonly Container[];
    readonly volumes?: readonly Volume[];
    readonly terminationGracePeriodSeconds?: number;
    readonly automountServiceAccountToken?: boolean;
    readonly securityContext?: { readonly runAsNonRoot?: boolean; readonly seccompProfile?: { readonly type: string } };
  };
}

export interface Workload extends KubeObject {
  readonly spec: { readonly replicas?: number; readonly selector: LabelSelector; readonly template: PodTemplate; readonly serviceName?: string };
}

export function isWorkload(object: KubeObject): object is Workload {
  return object.kind === 'Deployment' || object.kind === 'StatefulSet';
}

/** A Job: a pod template run to completion (the provisioning step). */
export interface JobObject extends KubeObject {
  readonly spec: { readonly backoffLimit?: number; readonly template: PodTemplate & { readonly spec: { readonly restartPolicy?: string } } };
}

export function find<T extends KubeObject = KubeObject>(objects: readonly KubeObject[], kind: T['kind'], name: string): T | undefined {
  return objects.find((object) => object.kind === kind && object.metadata.name === name) as T | undefined;
}

export function ofKind<T extends KubeObject = KubeObject>(objects: readonly KubeObject[], kind: T['kind']): T[] {
  return objects.filter((object) => object.kind === kind) as T[];
}

export function selects(selector: LabelSelector | undefined, labels: Readonly<Record<string, string>> | undefined): boolean {
  if (selector === undefined) return false;
  const actual = labels ?? {};
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) if (actual[key] !== value) return false;
  for (const expression of selector.matchExpressions ?? []) {
    const value = actual[expression.key];
    const values = expression.values ?? [];
    const matches =
      expression.operator === 'In'
        ? value !== undefined && values.includes(value)
        : expression.operator === 'NotIn'
          ? value === undefined || !values.includes(value)
          : expression.operator === 'Exists'
            ? value !== undefined
            : value === undefined;
    if (!matches) return false;
  }
  return true;
}

/** Where each variable of a container comes from, after envFrom and env (env wins, as in Kubernetes). */
export interface ResolvedEnv {
  readonly literal: Record<string, string>;
  readonly secret: Record<string, { readonly name: string; readonly key: string; readonly optional: boolean }>;
  readonly field: Record<string, string>;
  /** References to objects the overlay does not render (a ConfigMap, an envFrom Secret). */
  readonly problems: string[];
}

type Source =
  | { readonly type: 'literal'; readonly value: string }
  | { readonly type: 'secret'; readonly name: string; readonly key: string; readonly optional: boolean }
  | { readonly type: 'field'; readonly path: string };

export function resolveEnv(objects: readonly KubeObject[], container: Container): ResolvedEnv {
  const sources = new Map<string, Source>();
  const problems: string[] = [];
  for (const from of container.envFrom ?? []) {
    if (from.secretRef) problems.push(`envFrom secretRef ${from.secretRef.name}: name each secret variable (secretKeyRef)`);
    if (!from.configMapRef) continue;
    const configMap = find<KubeObject & { data?: Record<string, string> }>(objects, 'ConfigMap', from.configMapRef.name);
    if (configMap === undefined) problems.push(`envFrom ConfigMap ${from.configMapRef.name} is not rendered`);
    for (const [name, value] of Object.entries(configMap?.data ?? {})) sources.set(name, { type: 'literal', value });
  }
  for (const variable of container.env ?? []) {
    const from = variable.valueFrom;
    if (from?.secretKeyRef) sources.set(variable.name, { type: 'secret', ...from.secretKeyRef, optional: from.secretKeyRef.optional === true });
    else if (from?.fieldRef) sources.set(variable.name, { type: 'field', path: from.fieldRef.fieldPath });
    else if (from?.configMapKeyRef) {
      const configMap = find<KubeObject & { data?: Record<string, string> }>(objects, 'ConfigMap', from.configMapKeyRef.name);
      const value = configMap?.data?.[from.configMapKeyRef.key];
      if (value === undefined) problems.push(`${variable.name}: ConfigMap ${from.configMapKeyRef.name} has no key ${from.configMapKeyRef.key}`);
      else sources.set(variable.name, { type: 'literal', value });
    } else sources.set(variable.name, { type: 'literal', value: variable.value ?? '' });
  }
  const resolved: ResolvedEnv = { literal: {}, secret: {}, field: {}, problems };
  for (const [name, source] of sources) {
    if (source.type === 'literal') resolved.literal[name] = source.value;
    else if (source.type === 'secret') resolved.secret[name] = { name: source.name, key: source.key, optional: source.optional };
    else resolved.field[name] = source.path;
  }
  return resolved;
}

export function envNames(env: ResolvedEnv): string[] {
  return [...Object.keys(env.literal), ...Object.keys(env.secret), ...Object.keys(env.field)].sort();
}

/** A container port given by number or by name. */
export function resolvePort(container: Container, port: number | string): number | undefined {
  if (typeof port === 'number') return port;
  if (/^\d+$/.test(port)) return Number(port);
  return container.ports?.find((candidate) => candidate.name === port)?.containerPort;
}

/** Kubernetes quantities, in cores or bytes. */
export function quantity(value: string | number): number {
  if (typeof value === 'number') return value;
  const match = /^(\d+(?:\.\d+)?)(m|k|M|G|T|Ki|Mi|Gi|Ti)?$/.exec(value);
  if (match === null) return Number.NaN;
  const factors: Readonly<Record<string, number>> = { m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40 };
  return Number(match[1]) * (factors[match[2] ?? ''] ?? 1);
}

/** Seconds a preStop hook waits (`sleep N` or the native sleep action), 0 without one. */
export function preStopSeconds(container: Container): number {
  const preStop = container.lifecycle?.preStop;
  if (preStop?.sleep) return preStop.sleep.seconds;
  const command = preStop?.exec?.command ?? [];
  return command[0] === 'sleep' && command[1] !== undefined ? Number(command[1]) : 0;
}

/** The app an image is built from: `…/llm-stream/<app>:<tag>`. */
export function appOfImage(image: string): string | undefined {
  return /(?:^|\/)llm-stream\/([a-z-]+)(?::|@|$)/.exec(image)?.[1];
}
