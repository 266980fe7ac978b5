import { readFileSync } from 'node:fs';
import { generateNatsCredentials } from '@llm-stream/pipeline';
import { makeTestCertificates, repoRoot, type TestCertificates } from '@llm-stream/testing';
import { checkCluster } from '../src/cluster-rules.js';
import { readAppFacts } from '../src/app-facts.js';
import { appContainers, checkWorkload, containerEnvironment } from '../src/deployment-rules.js';
import { OVERLAYS, renderKustomization, type KubeObject } from '../src/kustomize.js';
import { CREDENTIALS_KEY, NATS_SECRET, checkNatsAuthorization } from '../src/nats-authorization-rules.js';
import { checkNatsTls } from '../src/nats-tls-rules.js';
import { STAND_IN_SECRETS, appFacts, loadOverlay } from '../src/overlay-model.js';
import { findUnknownFields } from '../src/unknown-fields.js';
import { validateObjects } from '../src/validate-objects.js';
import { appOfImage, find, resolveEnv, type Workload } from '../src/workloads.js';
import { PodRunner } from './support/pod-runner.js';

const root = repoRoot();
/** The production overlay plus deploy/components/nats-tls, as an operator's overlay would add it. */
const FIXTURE = 'tools/deploy-checks/test/fixtures/production-nats-tls';

function renderFixture(): KubeObject[] {
  const rendered = renderKustomization(root, FIXTURE);
  if (!rendered.ok) throw new Error(rendered.error.message);
  expect(rendered.warnings).toBe('');
  return rendered.objects;
}

describe.each(OVERLAYS)('overlay %s: TLS to NATS', (overlay) => {
  it('is off on both ends (no server certificate, no client CA)', () => {
    expect(checkNatsTls(loadOverlay(root, overlay).objects)).toEqual([]);
  });
});

describe('deploy/components/nats-tls on the production overlay', () => {
  const objects = renderFixture();

  it('renders valid objects that pass the cluster, authorization and TLS rules', () => {
    expect(validateObjects(objects)).toEqual([]);
    expect(findUnknownFields(objects)).toEqual([]);
    expect(checkNatsAuthorization(objects)).toEqual([]);
    expect(checkNatsTls(objects)).toEqual([]);
    const apps = appContainers(objects, appOfImage).map((entry) => ({ ...entry, facts: appFacts(root, entry.app) }));
    expect(checkCluster(objects, apps, { namespace: 'llm-stream', jetstreamReplicas: 3 })).toEqual([]);
    for (const { workload, container, facts, app } of apps) {
      expect(checkWorkload(objects, workload, container, facts)).toEqual([]);
      const { env } = containerEnvironment(resolveEnv(objects, container), { secrets: STAND_IN_SECRETS, podName: `${workload.metadata.name}-0` });
      expect({ app, CA: env['NATS_TLS_CA_FILE'], validation: readAppFacts(root, app, env).validation }).toEqual({ app, CA: '/etc/llm-stream/nats-tls/ca.crt', validation: { ok: true } });
    }
  });

  it.each<[string, string | RegExp, string, string]>([
    ['a service without the CA mounted', /\{"mountPath":"\/etc\/llm-stream\/nats-tls","name":"nats-tls","readOnly":true\}/, '{"mountPath":"/etc/llm-stream/other","name":"nats-tls","readOnly":true}', 'NATS_TLS_CA_FILE must be the ca.crt of Secret llm-stream-nats-tls'],
    ['a server certificate the nats container does not mount', '{"mountPath":"/etc/nats-tls","name":"tls","readOnly":true}', '{"mountPath":"/etc/other-tls","name":"tls","readOnly":true}', 'must be files of one Secret the nats container mounts'],
    ['clients that require client certificates', '"--tls-key","/etc/nats-tls/tls.key"', '"--tls-key","/etc/nats-tls/tls.key","--tls-ca","/etc/nats-tls/ca.crt"', '--tls-ca requires client certificates'],
  ])('catch %s', (_case, search, replacement, message) => {
    const text = JSON.stringify(objects);
    const edited = text.replace(search, replacement);
    expect(edited).not.toBe(text);
    expect(checkNatsTls(JSON.parse(edited) as KubeObject[])).toEqual(expect.arrayContaining([expect.stringContaining(message)]));
  });

  it('the plain overlay with a client CA set is caught (a client would fail against a plain server)', () => {
    const text = JSON.stringify(loadOverlay(root, 'production').objects);
    const edited = text.replace('"LOG_LEVEL":"info"', '"LOG_LEVEL":"info","NATS_TLS_CA_FILE":"/etc/ca.crt"');
    expect(edited).not.toBe(text);
    expect(checkNatsTls(JSON.parse(edited) as KubeObject[])).toEqual(expect.arrayContaining([expect.stringContaining('the NATS server has no certificate')]));
  });
});

/**
 * The component's commands run here against a real nats-server, with a CA this test makes (the server's
 * certificate names 127.0.0.1): the init container renders TLS into the authorization, the server takes TLS
 * only, the Job and the services' waits verify it with the mounted ca.crt; a client without the CA is refused.
 */
describe('deploy/components/nats-tls, run', () => {
  const objects = renderFixture();
  const credentials = generateNatsCredentials(['acme']);
  let certificates: TestCertificates;
  let pods: PodRunner;
  let natsUrl = '';

  beforeAll(async () => {
    certificates = await makeTestCertificates();
    const secrets = {
      [NATS_SECRET]: {
        [CREDENTIALS_KEY]: JSON.stringify(credentials),
        gateway: credentials.platform.gateway.password,
        normalizer: credentials.platform.normalizer.password,
        'audit-log': credentials.platform['audit-log'].password,
      },
      'llm-stream-nats-tls': {
        'tls.crt': readFileSync(certificates.serverCertFile, 'utf8'),
        'tls.key': readFileSync(certificates.serverKeyFile, 'utf8'),
        'ca.crt': readFileSync(certificates.caFile, 'utf8'),
      },
    };
    pods = new PodRunner(root, objects, secrets);
    natsUrl = await pods.startNats();
    await pods.provision(natsUrl, ['gateway']);
  }, 180_000);

  afterAll(async () => {
    await pods.stop();
    certificates.remove();
  });

  it('renders TLS into the authorization, provisions over TLS, and the wait verifies the server with the CA', () => {
    expect(pods.steps).toEqual([
      { step: 'nats-0 init container authorization', code: 0 },
      { step: 'Job provision', code: 0 },
      { step: 'gateway init container wait-for-streams', code: 0 },
    ]);
  });

  it('a client without the CA is refused (the server takes TLS only and its certificate is not a public one)', async () => {
    const gateway = find<Workload>(objects, 'Deployment', 'gateway');
    const wait = gateway?.spec.template.spec.initContainers?.[0];
    if (gateway === undefined || wait === undefined) throw new Error('no gateway wait');
    const files = pods.files('gateway-without-ca', gateway.spec.template);
    const result = await pods.startCli('gateway-without-ca', { ...wait, command: ['node', 'apps/cli/dist/main.js', 'check-streams'] }, files, { NATS_URL: natsUrl, NATS_TLS_CA_FILE: '' }).waitForExit(30_000);
    expect(result.code).toBe(1);
  });
});
