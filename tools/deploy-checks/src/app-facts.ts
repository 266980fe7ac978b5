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
export const DEPLOYABLE_APPS = ['gateway', 'normalizer', 'audit-log', 'replay-provider', 'cli'] as const;
export type DeployableApp = (typeof DEPLOYABLE_APPS)[number];

/**
 * The deployable apps that serve nothing: commands run to completion (the CLI, in init containers and the
 * provisioning Job). Their images expose no port and have no health check.
 */
export const COMMAND_APPS: readonly DeployableApp[] = ['cli'];

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
