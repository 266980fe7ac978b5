import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '@llm-stream/testing';
import { readAppFacts } from '../src/app-facts.js';
import { checkWorkload, containerEnvironment, SECRET_VARIABLE } from '../src/deployment-rules.js';
import { OVERLAYS, type KubeObject } from '../src/kustomize.js';
import { STAND_IN_SECRETS, loadOverlay, renderedSecrets } from '../src/overlay-model.js';
import { resolveEnv, type Workload } from '../src/workloads.js';

const root = repoRoot();

describe.each(OVERLAYS)('overlay %s: each Deployment against its built app', (overlay) => {
  const model = loadOverlay(root, overlay);

  it('runs the gateway, the normalizer and the audit log', () => {
    expect(model.apps.map((entry) => entry.app)).toEqual(expect.arrayContaining(['gateway', 'normalizer', 'audit-log']));
  });

  it.each(model.apps.map((entry) => [entry.workload.metadata.name, entry] as const))('%s: variables, ports, probes, metrics and shutdown match the app', (_name, entry) => {
    expect(checkWorkload(model.objects, entry.workload, entry.container, entry.facts)).toEqual([]);
  });

  it("every built app accepts its Deployment's environment (its own config validation)", () => {
    const secrets = overlay === 'dev' ? renderedSecrets(model.objects) : STAND_IN_SECRETS;
    const validated: string[] = [];
    for (const { workload, container, app } of model.apps) {
      const { env, problems } = containerEnvironment(resolveEnv(model.objects, container), { secrets, podName: `${workload.metadata.name}-6d9c7b5f4-x2k7p` });
      expect(problems).toEqual([]);
      expect({ app, validation: readAppFacts(root, app, env).validation }).toEqual({ app, validation: { ok: true } });
      validated.push(app);
    }
    expect(validated).toEqual(expect.arrayContaining(['gateway', 'normalizer']));
  });
});

describe('secrets', () => {
  const production = loadOverlay(root, 'production');
  const dev = loadOverlay(root, 'dev');
  const references = (objects: readonly KubeObject[]): { name: string; key: string; optional: boolean }[] =>
    objects
      .filter((object): object is Workload => object.kind === 'Deployment' || object.kind === 'StatefulSet')
      .flatMap((workload) => workload.spec.template.spec.containers.flatMap((container) => Object.values(resolveEnv(objects, container).secret)));

  it('production ships no Secret, and every secret value is a reference', () => {
    expect(production.objects.filter((object) => object.kind === 'Secret')).toEqual([]);
    for (const { container } of production.apps) {
      const literal = Object.keys(resolveEnv(production.objects, container).literal).filter((name) => SECRET_VARIABLE.test(name));
      expect(literal).toEqual([]);
    }
  });

  it('deploy/README.md tells how to create every Secret key production references', () => {
    const readme = readFileSync(join(root, 'deploy/README.md'), 'utf8');
    for (const { name, key } of references(production.objects)) {
      expect(readme).toMatch(new RegExp(`create secret generic ${name}\\b[^\\n]*(\\\\\\n[^\\n]*)*--from-literal=${key}=`));
    }
  });

  it('the dev overlay brings example values for every required reference', () => {
    const secrets = renderedSecrets(dev.objects);
    for (const { name, key, optional } of references(dev.objects)) {
      if (!optional) expect(secrets[name]?.[key]).toEqual(expect.any(String));
    }
  });
});

describe('the Deployment rules', () => {
  // They can fail: a rendered gateway Deployment, broken in one way at a time.
  const model = loadOverlay(root, 'production');
  const found = model.apps.find((entry) => entry.app === 'gateway');
  if (found === undefined) throw new Error('no gateway in production');
  const gateway = found;
  const text = JSON.stringify(gateway.workload);

  function problemsAfter(search: string | RegExp, replacement: string): string[] {
    const edited = text.replace(search, replacement);
    if (edited === text) throw new Error(`the gateway Deployment no longer contains ${String(search)}`);
    const workload = JSON.parse(edited) as Workload;
    const container = workload.spec.template.spec.containers[0];
    if (container === undefined) throw new Error('no container');
    return checkWorkload(model.objects, workload, container, gateway.facts);
  }

  it.each<[string, string | RegExp, string, string]>([
    ['a variable the app does not read', '"name":"GATEWAY_ID"', '"name":"GATEWAY_NAME"', 'does not read'],
    ['a required variable missing', /\{"name":"GATEWAY_API_KEYS","valueFrom":\{"secretKeyRef":\{[^}]*\}\}\},/, '', 'must set GATEWAY_API_KEYS'],
    ['a secret written in the manifest', /\{"name":"OPENAI_API_KEY","valueFrom":\{"secretKeyRef":\{[^}]*\}\}\}/, '{"name":"OPENAI_API_KEY","value":"sk-1"}', 'take it from a Secret'],
    ['a container port the app does not listen on', '"containerPort":8080', '"containerPort":8000', 'the app listens on 8080'],
    ['a probe on a path the app does not serve', '"path":"/health/ready"', '"path":"/healthz"', 'not a GET route'],
    ['a liveness probe on readiness', /"livenessProbe":\{([^}]*)"path":"\/health\/live"/, '"livenessProbe":{$1"path":"/health/ready"', 'must use /health/live'],
    ['a probe on another port', /"readinessProbe":\{([^}]*)"port":"http"/, '"readinessProbe":{$1"port":9000', 'is not the app\'s port'],
    ['no readiness probe', /"readinessProbe":\{"failureThreshold":2,"httpGet":\{[^}]*\},[^}]*\},/, '', 'has no readiness probe'],
    ['a grace period shorter than the drain', '"terminationGracePeriodSeconds":90', '"terminationGracePeriodSeconds":30', 'terminationGracePeriodSeconds'],
    ['metrics scraped elsewhere', '"prometheus.io/path":"/metrics"', '"prometheus.io/path":"/prometheus"', 'prometheus.io/path'],
  ])('catch %s', (_case, search, replacement, message) => {
    expect(problemsAfter(search, replacement)).toEqual(expect.arrayContaining([expect.stringContaining(message)]));
  });

  it('catch a port set in the ConfigMap that the container does not expose', () => {
    const objects = JSON.parse(JSON.stringify(model.objects).replace('"HTTP_PORT":"8080"', '"HTTP_PORT":"8000"')) as KubeObject[];
    expect(checkWorkload(objects, gateway.workload, gateway.container, gateway.facts)).toEqual(
      expect.arrayContaining([expect.stringContaining('the app listens on 8000')]),
    );
  });
});

describe('GATEWAY_API_KEYS judged as the apps judge it at start', () => {
  it.each(['gateway', 'audit-log'])('%s refuses a malformed key table', (app) => {
    expect(readAppFacts(root, app, { GATEWAY_API_KEYS: '[1]' }).validation).toEqual({
      ok: false,
      variable: 'GATEWAY_API_KEYS',
      message: 'invalid configuration: GATEWAY_API_KEYS entry 0 is not an object',
    });
  });
});
