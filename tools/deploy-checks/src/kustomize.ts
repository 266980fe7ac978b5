import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

/** One rendered Kubernetes object, as plain JSON. */
export interface KubeObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string; readonly labels?: Readonly<Record<string, string>> };
  readonly [field: string]: unknown;
}

export interface KustomizeError {
  readonly code: 'kustomize_failed';
  readonly message: string;
}

/** The renderer: `kubectl kustomize` (KUBECTL overrides the binary). */
export function kubectlBinary(): string {
  return process.env['KUBECTL'] ?? 'kubectl';
}

/** The kustomize version kubectl embeds, e.g. `v5.5.0`. */
export function kustomizeVersion(): string {
  const output = execFileSync(kubectlBinary(), ['version', '--client', '-o', 'json'], { encoding: 'utf8' });
  const parsed = JSON.parse(output) as { kustomizeVersion?: string };
  return parsed.kustomizeVersion ?? 'unknown';
}

/** The overlays under deploy/overlays, by directory name. */
export const OVERLAYS = ['dev', 'production'] as const;
export type Overlay = (typeof OVERLAYS)[number];

/** The rendered objects, and what kustomize printed on stderr (deprecation warnings: syntax to replace). */
export function renderKustomization(root: string, path: string): { ok: true; objects: KubeObject[]; warnings: string } | { ok: false; error: KustomizeError } {
  const result = spawnSync(kubectlBinary(), ['kustomize', join(root, path)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) return { ok: false, error: { code: 'kustomize_failed', message: (result.stderr || String(result.error)).trim() } };
  const output = result.stdout;
  const objects: KubeObject[] = [];
  for (const document of parseAllDocuments(output)) {
    if (document.errors.length > 0) return { ok: false, error: { code: 'kustomize_failed', message: document.errors.map(String).join('; ') } };
    const value: unknown = document.toJS();
    if (value !== null) objects.push(value as KubeObject);
  }
  return { ok: true, objects, warnings: result.stderr.trim() };
}

export function renderOverlay(root: string, overlay: Overlay): KubeObject[] {
  const rendered = renderKustomization(root, `deploy/overlays/${overlay}`);
  if (!rendered.ok) throw new Error(`kubectl kustomize deploy/overlays/${overlay} failed: ${rendered.error.message}`);
  return rendered.objects;
}
