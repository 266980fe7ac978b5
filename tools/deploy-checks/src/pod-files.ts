import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { KubeObject } from './kustomize.js';
import { find, type Container, type PodTemplate } from './workloads.js';

/**
 * A pod's volumes laid out on this machine, so that its containers' commands can run here: each volume is a
 * directory (a Secret's or a ConfigMap's keys as files, an emptyDir empty), and each container gets a root
 * where its mount paths are links to those directories. A path in a command, such as nats.conf's relative
 * include, resolves here as in the pod: `localPath(container, '/etc/nats/nats.conf')`.
 */
export class PodFiles {
  private readonly volumes = new Map<string, string>();
  /** The containers whose root of mount links is made. */
  private readonly linked = new Set<string>();

  /**
   * `secrets`: Secret name → key → value (a dev overlay's example Secrets, or stand-ins); `claims`: the volumes
   * of a StatefulSet's volumeClaimTemplates (empty directories here).
   */
  constructor(
    private readonly dir: string,
    template: PodTemplate,
    objects: readonly KubeObject[],
    secrets: Readonly<Record<string, Readonly<Record<string, string>>>>,
    claims: readonly string[] = [],
  ) {
    for (const claim of claims) {
      const path = join(dir, 'volumes', claim);
      mkdirSync(path, { recursive: true });
      this.volumes.set(claim, path);
    }
    for (const volume of template.spec.volumes ?? []) {
      const path = join(dir, 'volumes', volume.name);
      mkdirSync(path, { recursive: true });
      this.volumes.set(volume.name, path);
      const source = volume.secret
        ? { data: secrets[volume.secret.secretName], items: volume.secret.items, what: `Secret ${volume.secret.secretName}` }
        : volume.configMap
          ? { data: find<KubeObject & { data?: Record<string, string> }>(objects, 'ConfigMap', volume.configMap.name)?.data, items: volume.configMap.items, what: `ConfigMap ${volume.configMap.name}` }
          : undefined;
      if (source === undefined) continue;
      if (source.data === undefined) throw new Error(`volume ${volume.name}: ${source.what} has no values here`);
      const data = source.data;
      const items = source.items ?? Object.keys(data).map((key) => ({ key, path: key }));
      for (const item of items) {
        const value = data[item.key];
        if (value === undefined) throw new Error(`volume ${volume.name}: ${source.what} has no key ${item.key}`);
        mkdirSync(dirname(join(path, item.path)), { recursive: true });
        writeFileSync(join(path, item.path), value, { mode: 0o600 });
      }
    }
  }

  /** The directory holding one volume's files. */
  volume(name: string): string {
    const path = this.volumes.get(name);
    if (path === undefined) throw new Error(`the pod has no volume ${name}`);
    return path;
  }

  /** Where a container's path is on this machine (through its root of mount links). */
  localPath(container: Container, path: string): string {
    const root = join(this.dir, 'containers', container.name);
    if (!this.linked.has(container.name)) {
      for (const mount of container.volumeMounts ?? []) {
        const link = join(root, mount.mountPath);
        mkdirSync(dirname(link), { recursive: true });
        symlinkSync(this.volume(mount.name), link);
      }
      this.linked.add(container.name);
    }
    return join(root, path);
  }

  /** A container's arguments with every absolute path under one of its mounts made local. */
  localArguments(container: Container, argv: readonly string[]): string[] {
    return argv.map((word) => (this.isMounted(container, word) ? this.localPath(container, word) : word));
  }

  /** The same for the values of an environment (NATS_TLS_CA_FILE=/etc/…). */
  localEnvironment(container: Container, env: Readonly<Record<string, string>>): Record<string, string> {
    return Object.fromEntries(Object.entries(env).map(([name, value]) => [name, this.isMounted(container, value) ? this.localPath(container, value) : value]));
  }

  /** A file's text with every quoted pod path under one of the container's mounts made local. */
  localText(container: Container, text: string): string {
    return text.replace(/"(\/[^"]+)"/g, (quoted, path: string) => (this.isMounted(container, path) ? JSON.stringify(this.localPath(container, path)) : quoted));
  }

  private isMounted(container: Container, path: string): boolean {
    return (container.volumeMounts ?? []).some((mount) => path.startsWith(`${mount.mountPath}/`));
  }
}
