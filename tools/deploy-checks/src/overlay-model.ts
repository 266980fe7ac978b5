import { DEPLOYABLE_APPS, readAppFacts, type AppFacts } from './app-facts.js';
import { appContainers, type ValueSources } from './deployment-rules.js';
import { renderOverlay, type KubeObject, type Overlay } from './kustomize.js';
import type { RunningApp } from './cluster-rules.js';
import { appOfImage, ofKind } from './workloads.js';

export const NAMESPACES: Readonly<Record<Overlay, string>> = { dev: 'llm-stream-dev', production: 'llm-stream' };

/** Stand-ins for the Secrets an operator creates (production ships none): valid values of the right shape. */
export const STAND_IN_SECRETS: ValueSources['secrets'] = {
  'llm-stream-api-keys': { GATEWAY_API_KEYS: JSON.stringify([{ sha256: '0'.repeat(64), tenant: 'example' }]) },
  'llm-stream-provider-keys': { OPENAI_API_KEY: 'stand-in', ANTHROPIC_API_KEY: 'stand-in', GEMINI_API_KEY: 'stand-in' },
  'llm-stream-audit-db': { AUDIT_DATABASE_URL: 'postgres://llm_stream:stand-in@postgres.example:5432/llm_stream' },
  'llm-stream-nats': { gateway: 'stand-in-gateway-password', normalizer: 'stand-in-normalizer-password', 'audit-log': 'stand-in-audit-log-password' },
};

const factsCache = new Map<string, AppFacts>();

export function appFacts(root: string, app: string): AppFacts {
  let facts = factsCache.get(app);
  if (facts === undefined) {
    facts = readAppFacts(root, app);
    factsCache.set(app, facts);
  }
  return facts;
}

/** The Secrets an overlay renders, as name → key → value. */
export function renderedSecrets(objects: readonly KubeObject[]): Record<string, Record<string, string>> {
  const result: Record<string, Record<string, string>> = {};
  for (const secret of ofKind<KubeObject & { stringData?: Record<string, string>; data?: Record<string, string> }>(objects, 'Secret')) {
    const decoded = Object.fromEntries(Object.entries(secret.data ?? {}).map(([key, value]) => [key, Buffer.from(value, 'base64').toString('utf8')]));
    result[secret.metadata.name] = { ...decoded, ...secret.stringData };
  }
  return result;
}

export interface OverlayModel {
  readonly overlay: Overlay;
  readonly objects: readonly KubeObject[];
  readonly apps: readonly (RunningApp & { readonly app: string; readonly facts: AppFacts })[];
}

export function loadOverlay(root: string, overlay: Overlay): OverlayModel {
  const objects = renderOverlay(root, overlay);
  const apps = appContainers(objects, appOfImage).map(({ workload, container, app }) => {
    if (!(DEPLOYABLE_APPS as readonly string[]).includes(app)) throw new Error(`${workload.metadata.name} runs an unknown app ${app}`);
    return { workload, container, app, facts: appFacts(root, app) };
  });
  return { overlay, objects, apps };
}
