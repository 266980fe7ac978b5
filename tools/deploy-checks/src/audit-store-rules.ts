import type { KubeObject } from './kustomize.js';
import { find, type Workload } from './workloads.js';

/** The slice of a pod template the store rule reads: the audit container's env and mounts, the pod's volumes. */
interface AuditPodSpec {
  readonly containers: readonly {
    readonly name: string;
    readonly env?: readonly { readonly name: string; readonly value?: string; readonly valueFrom?: { readonly secretKeyRef?: { readonly name: string; readonly key: string } } }[];
    readonly volumeMounts?: readonly { readonly name: string; readonly mountPath: string; readonly readOnly?: boolean }[];
  }[];
  readonly volumes?: readonly { readonly name: string; readonly persistentVolumeClaim?: { readonly claimName: string }; readonly emptyDir?: object }[];
}

interface SecretObject extends KubeObject {
  readonly stringData?: Readonly<Record<string, string>>;
  readonly data?: Readonly<Record<string, string>>;
}

/** Where the audit log of a rendered overlay stores: PostgreSQL named by a Secret, or SQLite on a volume. */
export type AuditStore =
  | { readonly kind: 'postgres'; readonly secret: string; readonly key: string }
  | { readonly kind: 'sqlite'; readonly path: string; readonly claim: string | null };

/**
 * Checks that the audit log of an overlay has a store it can start on. `selfContained` overlays (dev) must
 * bring everything: the Secret with the database URL and a Service for its host, or the claim of the SQLite
 * volume. Others (production) reference operator-made Secrets, so only the shape is checked. SQLite must live on
 * a PersistentVolumeClaim: the full-truth log must survive a pod restart.
 */
export function checkAuditStore(objects: readonly KubeObject[], options: { readonly selfContained: boolean }): { store: AuditStore | null; problems: string[] } {
  const workload = find<Workload>(objects, 'Deployment', 'audit-log');
  if (workload === undefined) return { store: null, problems: ['no Deployment audit-log'] };
  const pod = workload.spec.template.spec as unknown as AuditPodSpec;
  const container = pod.containers.find((candidate) => candidate.name === 'audit-log');
  if (container === undefined) return { store: null, problems: ['Deployment audit-log has no container audit-log'] };
  const env = new Map((container.env ?? []).map((variable) => [variable.name, variable]));
  const database = env.get('AUDIT_DATABASE_URL');
  if (database !== undefined && database.value !== '') {
    const reference = database.valueFrom?.secretKeyRef;
    if (reference === undefined) return { store: null, problems: ['AUDIT_DATABASE_URL must come from a Secret (it holds a password)'] };
    const store: AuditStore = { kind: 'postgres', secret: reference.name, key: reference.key };
    if (!options.selfContained) return { store, problems: [] };
    const secret = find<SecretObject>(objects, 'Secret', reference.name);
    const url = secret?.stringData?.[reference.key] ?? (secret?.data?.[reference.key] === undefined ? undefined : Buffer.from(secret.data[reference.key] ?? '', 'base64').toString('utf8'));
    if (url === undefined) return { store, problems: [`AUDIT_DATABASE_URL: the overlay renders no Secret ${reference.name} with key ${reference.key}`] };
    const host = URL.canParse(url) ? new URL(url).hostname : '';
    const service = host.split('.')[0] ?? '';
    return { store, problems: find(objects, 'Service', service) === undefined ? [`AUDIT_DATABASE_URL points at ${host || url}, a host no Service of the overlay provides`] : [] };
  }
  const path = env.get('AUDIT_SQLITE_PATH')?.value ?? 'data/audit.sqlite';
  const mount = (container.volumeMounts ?? []).find((candidate) => path.startsWith(`${candidate.mountPath.replace(/\/$/, '')}/`));
  if (mount === undefined || mount.readOnly === true) return { store: { kind: 'sqlite', path, claim: null }, problems: [`AUDIT_SQLITE_PATH=${path} is on no writable volume (the root filesystem is read-only)`] };
  const claim = pod.volumes?.find((volume) => volume.name === mount.name)?.persistentVolumeClaim?.claimName ?? null;
  const store: AuditStore = { kind: 'sqlite', path, claim };
  if (claim === null) return { store, problems: [`AUDIT_SQLITE_PATH=${path} is on volume ${mount.name}, which is no PersistentVolumeClaim: the audit log would be lost with the pod`] };
  if (options.selfContained && find(objects, 'PersistentVolumeClaim', claim) === undefined) return { store, problems: [`the overlay renders no PersistentVolumeClaim ${claim} for the audit log`] };
  return { store, problems: [] };
}
