import { execFileSync } from 'node:child_process';
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

export function renderKustomization(root: string, path: string): { ok: true; objects: KubeObject[] } | { ok: false; error: KustomizeError } {
  let output: string;
  try {
    output = execFileSync(kubectlBinary(), ['kustomize', join(root, path)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? String(error);
    return { ok: false, error: { code: 'kustomize_failed', message: stderr.trim() } };
  }
  const objects: KubeObject[] = [];
  for (const document of parseAllDocuments(output)) {
    if (document.errors.length > 0) return { ok: false, error: { code: 'kustomize_failed', message: document.errors.map(String).join('; ') } };
    const value: unknown = document.toJS();
    if (value !== null) objects.push(value as KubeObject);
  }
  return { ok: true, objects };
}

export function renderOverlay(root: string, overlay: Overlay): KubeObject[] {
  const rendered = renderKustomization(root, `deploy/overlays/${overlay}`);
  if (!rendered.ok) throw new Error(`kubectl kustomize deploy/overlays/${overlay} failed: ${rendered.error.message}`);
  return rendered.objects;
}
