import { repoRoot } from '@llm-stream/testing';
import { parseNatsCredentials } from '@llm-stream/pipeline';
import { OVERLAYS, type KubeObject } from '../src/kustomize.js';
import { CREDENTIALS_KEY, NATS_SECRET, NATS_SERVICES, checkNatsAuthorization } from '../src/nats-authorization-rules.js';
import { loadOverlay, renderedSecrets } from '../src/overlay-model.js';

const root = repoRoot();

describe.each(OVERLAYS)('overlay %s: NATS authorization', (overlay) => {
  it('each service is its own NATS user with its password from the Secret, waits for the Job, which provisions; nats.conf includes the rendered users', () => {
    expect(checkNatsAuthorization(loadOverlay(root, overlay).objects)).toEqual([]);
  });
});

describe('the dev overlay\'s example NATS Secret', () => {
  const secret = renderedSecrets(loadOverlay(root, 'dev').objects)[NATS_SECRET] ?? {};

  it('holds credentials the CLI reads, for tenant acme, and each service\'s password is the one they give it', () => {
    const parsed = parseNatsCredentials(secret[CREDENTIALS_KEY] ?? '');
    if (!parsed.ok) throw new Error(parsed.error.message);
    expect(Object.keys(parsed.value.tenants)).toEqual(['acme']);
    for (const app of NATS_SERVICES) expect({ app, password: secret[app] }).toEqual({ app, password: parsed.value.platform[app].password });
  });
});

describe('the NATS authorization rules', () => {
  // They can fail: the rendered production overlay, broken in one way at a time.
  const text = JSON.stringify(loadOverlay(root, 'production').objects);

  function problemsAfter(edit: (objects: KubeObject[]) => void): string[] {
    const objects = JSON.parse(text) as KubeObject[];
    edit(objects);
    return checkNatsAuthorization(objects);
  }

  function replaced(search: string | RegExp, replacement: string): string[] {
    const edited = text.replace(search, replacement);
    if (edited === text) throw new Error(`the production overlay no longer contains ${String(search)}`);
    return checkNatsAuthorization(JSON.parse(edited) as KubeObject[]);
  }

  const pod = (objects: KubeObject[], kind: string, name: string): { initContainers?: unknown[]; containers: { env?: { name: string }[] }[] } => {
    const found = objects.find((object) => object.kind === kind && object.metadata.name === name) as unknown as { spec: { template: { spec: ReturnType<typeof pod> } } } | undefined;
    if (found === undefined) throw new Error(`${kind}/${name} is not rendered`);
    return found.spec.template.spec;
  };

  it.each<[string, (objects: KubeObject[]) => void, string]>([
    ['a service without its password', (objects) => {
      const container = pod(objects, 'Deployment', 'normalizer').containers[0];
      if (container?.env) container.env = container.env.filter((variable) => variable.name !== 'NATS_PASSWORD');
    }, 'Deployment/normalizer: NATS_PASSWORD must come from Secret llm-stream-nats key normalizer'],
    ['a service that does not wait for the streams', (objects) => {
      pod(objects, 'Deployment', 'audit-log').initContainers = [];
    }, 'Deployment/audit-log: no init container waits for the streams'],
    ['NATS without the rendered authorization', (objects) => {
      pod(objects, 'StatefulSet', 'nats').initContainers = [];
    }, 'no init container renders the authorization'],
    ['no provisioning Job', (objects) => {
      objects.splice(objects.findIndex((object) => object.kind === 'Job'), 1);
    }, 'no Job runs llm-stream provision'],
  ])('catch %s', (_case, edit, message) => {
    expect(problemsAfter(edit)).toEqual(expect.arrayContaining([expect.stringContaining(message)]));
  });

  it.each<[string, string | RegExp, string, string]>([
    ['a service under another user', '{"name":"NATS_USER","value":"gateway"}', '{"name":"NATS_USER","value":"provisioner"}', 'NATS_USER must be gateway'],
    ['a service with another service\'s password', '"key":"normalizer","name":"llm-stream-nats"', '"key":"gateway","name":"llm-stream-nats"', 'connects otherwise than the service'],
    ['a wait that checks once', '"check-streams","--wait","600"', '"check-streams"', 'must wait'],
    ['nats.conf that does not include the authorization', 'include ../nats-auth/authorization.conf', '# no include', 'nats.conf must include /etc/nats-auth/authorization.conf'],
    ['an include resolved elsewhere (nats-server reads it relative to nats.conf)', 'include ../nats-auth/authorization.conf', 'include nats-auth/authorization.conf', 'includes /etc/nats/nats-auth/authorization.conf'],
    ['the authorization rendered into a ConfigMap volume', '{"emptyDir":{"medium":"Memory","sizeLimit":"1Mi"},"name":"authorization"}', '{"configMap":{"name":"nats-config"},"name":"authorization"}', 'into an emptyDir'],
    ['credentials from another Secret', '"secretName":"llm-stream-nats"', '"secretName":"llm-stream-api-keys"', 'must read --credentials from Secret llm-stream-nats'],
    ['a Job that provisions other stream settings', /"envFrom":\[\{"configMapRef":\{"name":"llm-stream-pipeline-[a-z0-9]+"\}\}\],"image":"registry.example.com\/llm-stream\/cli:0.1.0","name":"provision"/, '"env":[{"name":"NATS_URL","value":"nats://nats:4222"}],"image":"registry.example.com/llm-stream/cli:0.1.0","name":"provision"', 'Job/provision: JETSTREAM_REPLICAS=undefined'],
  ])('catch %s', (_case, search, replacement, message) => {
    expect(replaced(search, replacement)).toEqual(expect.arrayContaining([expect.stringContaining(message)]));
  });
});
