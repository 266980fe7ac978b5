import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export type SettingValue = string | number | boolean;

export interface Route {
  readonly method: string;
  readonly path: string;
}

/** What a built app reads and serves (tools/deploy-checks/scripts/app-facts.mjs). */
export interface AppFacts {
  readonly app: string;
  readonly built: boolean;
  /** The environment variables the app reads, with their defaults; null when the app has no config class yet. */
  readonly config: { readonly source: string; readonly className: string | null; readonly settings: Readonly<Record<string, SettingValue>> } | null;
  /** The variable that holds the listening port. */
  readonly portSetting: string;
  readonly routes: readonly Route[];
  /** main.js sets a global route prefix (the routes above would then be incomplete). */
  readonly globalPrefix: boolean;
  /** The app's own verdict on an environment, when one was given. */
  readonly validation?: { readonly ok: true } | { readonly ok: false; readonly variable: string; readonly message: string };
}

/** The apps that have an image and run on a cluster. */
export const DEPLOYABLE_APPS = ['gateway', 'normalizer', 'audit-log', 'replay-provider'] as const;
export type DeployableApp = (typeof DEPLOYABLE_APPS)[number];

/**
 * Runs the facts script on the built app. With `env`, the app's own configuration loader also validates
 * that environment (values as a Deployment would set them).
 */
export function readAppFacts(root: string, app: string, env?: Readonly<Record<string, string>>): AppFacts {
  const args = [join(root, 'tools/deploy-checks/scripts/app-facts.mjs'), root, app];
  if (env !== undefined) args.push(JSON.stringify(env));
  const output = execFileSync(process.execPath, args, { encoding: 'utf8', cwd: root });
  return JSON.parse(output) as AppFacts;
}

export function getRoutes(facts: AppFacts): string[] {
  return facts.routes.filter((route) => route.method === 'GET').map((route) => route.path);
}

export function defaultPort(facts: AppFacts): number | undefined {
  const value = facts.config?.settings[facts.portSetting];
  return typeof value === 'number' ? value : undefined;
}

/**
 * What an app that is still being written promises (same conventions as the others): used only while its
 * build has no config class, so the checks already hold the manifests to it; the real class replaces it.
 */
const DECLARED: Readonly<Partial<Record<string, Pick<AppFacts, 'config' | 'routes'>>>> = {
  'audit-log': {
    config: {
      source: 'declared in tools/deploy-checks/src/app-facts.ts until apps/audit-log/src/config/audit-config.ts is built',
      className: 'AuditConfig',
      settings: {
        NATS_URL: 'nats://127.0.0.1:4222',
        HTTP_PORT: 8082,
        HTTP_HOST: '0.0.0.0',
        AUDIT_DATABASE_URL: '',
        GATEWAY_API_KEYS: '[]',
        JETSTREAM_REPLICAS: 1,
        RAW_RETENTION_HOURS: 24,
        EVENTS_RETENTION_HOURS: 24,
        LOG_LEVEL: 'info',
        TRACE_EXPORTER: 'none',
        TRACE_FILE: '',
      },
    },
    routes: [
      { method: 'GET', path: '/health/live' },
      { method: 'GET', path: '/health/ready' },
      { method: 'GET', path: '/metrics' },
    ],
  },
};

/**
 * The app's facts; for an app still being written, its declared config while it has no config class and its
 * declared routes while it has no controller yet (each part is replaced as soon as the build has it).
 */
export function effectiveFacts(facts: AppFacts): AppFacts & { readonly declaredOnly: boolean } {
  const declared = DECLARED[facts.app];
  if (declared === undefined) return { ...facts, declaredOnly: false };
  return {
    ...facts,
    config: facts.config ?? declared.config,
    routes: facts.routes.length > 0 ? facts.routes : declared.routes,
    declaredOnly: facts.config === null,
  };
}
