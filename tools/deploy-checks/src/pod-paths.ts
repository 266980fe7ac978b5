// Paths and commands inside a pod, as the rules read them: which CLI command a container runs, and which
// volume (and which Secret key) a path of a container lies on.
import { appOfImage, type Container, type PodTemplate, type Volume } from './workloads.js';

const CLI_ENTRY = ['node', 'apps/cli/dist/main.js'];
/** The CLI arguments of a container of the CLI image (after `node apps/cli/dist/main.js`), null for another container. */
export function cliArguments(container: Container): readonly string[] | null {
  if (appOfImage(container.image) !== 'cli') return null;
  const argv = [...(container.command ?? []), ...(container.args ?? [])];
  return CLI_ENTRY.every((word, index) => argv[index] === word) ? argv.slice(CLI_ENTRY.length) : null;
}

export function option(argv: readonly string[], name: string): string | undefined {
  const index = argv.indexOf(name);
  return index === -1 ? undefined : argv[index + 1];
}

/** The volume a container path lies on, and the path inside that volume. */
export function volumeAt(template: PodTemplate, container: Container, path: string): { volume: Volume; inside: string } | undefined {
  for (const mount of container.volumeMounts ?? []) {
    if (mount.subPath !== undefined || !path.startsWith(`${mount.mountPath}/`)) continue;
    const volume = template.spec.volumes?.find((candidate) => candidate.name === mount.name);
    if (volume !== undefined) return { volume, inside: path.slice(mount.mountPath.length + 1) };
  }
  return undefined;
}


/** The Secret and key a container path reads (a file of a mounted Secret volume), undefined for any other path. */
export function secretKeyAt(template: PodTemplate, container: Container, path: string | undefined): { secretName: string; key: string } | undefined {
  if (path === undefined) return undefined;
  const found = volumeAt(template, container, path);
  const secret = found?.volume.secret;
  if (found === undefined || secret === undefined) return undefined;
  const key = secret.items === undefined ? found.inside : secret.items.find((item) => item.path === found.inside)?.key;
  return key === undefined ? undefined : { secretName: secret.secretName, key };
}
