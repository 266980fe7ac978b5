// Prints, as one JSON line, what a built app really reads and serves: the environment variables of its
// configuration (with their defaults) and its HTTP routes. It imports the app's compiled files (ESM), which
// jest's CommonJS sandbox cannot do, so the deploy checks run it as a child process:
//   node tools/deploy-checks/scripts/app-facts.mjs <repo root> <app>
// Nest apps: the config class in dist/config/*-config.js (its own properties are the variable names, as
// loadConfig reads them) and the routes from Nest's metadata on the compiled controllers (the app's and libs/nest-kit's). The replay
// provider (plain node:http): the variables its parseConfig reads and its exported route table.
// Given an environment (JSON), the app's own loader also judges it: loadConfig with the config class (and
// parseApiKeys for GATEWAY_API_KEYS where the app has it), or the replay provider's parseConfig.
import 'reflect-metadata';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [root, app, envJson] = process.argv.slice(2);
if (root === undefined || app === undefined) {
  process.stderr.write('usage: app-facts.mjs <repo root> <app> [<environment as JSON>]\n');
  process.exit(2);
}
const dist = join(root, 'apps', app, 'dist');
/** The controllers every Nest service mounts from the shared lib (the metrics endpoint). */
const sharedControllers = join(root, 'libs', 'nest-kit', 'dist');

/** Nest's RequestMethod enum, in order. */
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'ALL', 'OPTIONS', 'HEAD', 'SEARCH'];

function filesUnder(dir, suffix) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(suffix))
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name))
    .sort();
}

async function load(file) {
  return import(pathToFileURL(file).href);
}

function isClass(value) {
  return typeof value === 'function' && /^class\b/.test(Function.prototype.toString.call(value));
}

function joinPath(...parts) {
  const tokens = parts.flatMap((part) => String(part).split('/')).filter((token) => token !== '');
  return `/${tokens.join('/')}`;
}

async function configClass() {
  for (const file of filesUnder(join(dist, 'config'), '-config.js')) {
    const module = await load(file);
    for (const [name, value] of Object.entries(module)) {
      if (isClass(value) && name.endsWith('Config')) return { file, name, value };
    }
  }
  return null;
}

async function nestConfig() {
  const found = await configClass();
  if (found === null) return null;
  return { source: found.file.slice(root.length + 1), className: found.name, settings: { ...new found.value() } };
}

async function nestValidation(env) {
  const found = await configClass();
  if (found === null) return { ok: false, variable: '', message: 'the app has no config class' };
  const { loadConfig, parseApiKeys } = await load(join(root, 'libs/service-kit/dist/index.js'));
  const loaded = loadConfig(found.value, env);
  if (!loaded.ok) return { ok: false, variable: loaded.error.variable, message: loaded.error.message };
  // The apps that read GATEWAY_API_KEYS parse it at start with service-kit's parser, as here.
  if (env.GATEWAY_API_KEYS !== undefined && 'GATEWAY_API_KEYS' in loaded.value) {
    const keys = parseApiKeys(env.GATEWAY_API_KEYS);
    if (!keys.ok) return { ok: false, variable: keys.error.variable, message: keys.error.message };
  }
  return { ok: true };
}

async function nestRoutes() {
  const routes = [];
  for (const file of [...filesUnder(dist, '.controller.js'), ...filesUnder(sharedControllers, '.controller.js')]) {
    const module = await load(file);
    for (const value of Object.values(module)) {
      if (!isClass(value)) continue;
      const base = Reflect.getMetadata('path', value);
      if (base === undefined) continue;
      for (const name of Object.getOwnPropertyNames(value.prototype)) {
        const handler = value.prototype[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const path = Reflect.getMetadata('path', handler);
        const method = Reflect.getMetadata('method', handler);
        if (path === undefined || method === undefined) continue;
        for (const basePath of [base].flat()) {
          for (const subPath of [path].flat()) routes.push({ method: METHODS[method] ?? String(method), path: joinPath(basePath, subPath) });
        }
      }
    }
  }
  return routes;
}

async function replayFacts() {
  const { parseConfig, DEFAULT_PORT, DEFAULT_HOST, DEFAULT_REQUEST_LOG_LIMIT } = await load(join(dist, 'config.js'));
  const read = [];
  const env = new Proxy({}, { get: (_target, key) => (typeof key === 'string' && read.push(key), undefined) });
  parseConfig(env, root);
  const defaults = { REPLAY_PORT: DEFAULT_PORT, REPLAY_HOST: DEFAULT_HOST, REPLAY_REQUEST_LOG_LIMIT: DEFAULT_REQUEST_LOG_LIMIT };
  const settings = Object.fromEntries(read.map((key) => [key, defaults[key] ?? '']));
  const { CONTROL_ROUTES } = await load(join(dist, 'control-api.js'));
  const routes = Object.entries(CONTROL_ROUTES).flatMap(([path, methods]) => methods.map((method) => ({ method, path })));
  const facts = { config: { source: `apps/${app}/dist/config.js`, className: null, settings }, portSetting: 'REPLAY_PORT', routes, globalPrefix: false };
  if (envJson === undefined) return facts;
  const parsed = parseConfig(JSON.parse(envJson), join(root, 'conformance/transcripts'));
  const validation = parsed.ok ? { ok: true } : { ok: false, variable: parsed.error.variable, message: parsed.error.message };
  return { ...facts, validation };
}

async function nestFacts() {
  const main = join(dist, 'main.js');
  const globalPrefix = existsSync(main) && readFileSync(main, 'utf8').includes('setGlobalPrefix');
  const facts = { config: await nestConfig(), portSetting: 'HTTP_PORT', routes: await nestRoutes(), globalPrefix };
  return envJson === undefined ? facts : { ...facts, validation: await nestValidation(JSON.parse(envJson)) };
}

const facts = app === 'replay-provider' ? await replayFacts() : await nestFacts();
process.stdout.write(`${JSON.stringify({ app, built: existsSync(join(dist, 'main.js')), ...facts })}\n`);
