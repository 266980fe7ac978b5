import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { STREAM_NAMES, SUBJECT_ROOTS, parseGatewayInstanceId } from '@llm-stream/contract';
import { connectNatsUser, parseNatsCredentials } from '@llm-stream/pipeline';
import { collectSse, getFreePort, httpStatus, repoRoot, startProcess, waitFor, type ManagedProcess } from '@llm-stream/testing';
import { AsyncApiSchemas, errorsOf, loadAsyncApi } from '../src/asyncapi.js';
import { containerEnvironment } from '../src/deployment-rules.js';
import { CREDENTIALS_KEY, NATS_SECRET } from '../src/nats-authorization-rules.js';
import { loadOverlay, renderedSecrets } from '../src/overlay-model.js';
import { resolveEnv } from '../src/workloads.js';
import { PodRunner } from './support/pod-runner.js';

/**
 * The dev overlay's pods, run as the images would run them, without Docker or a cluster: each app starts from
 * a staged copy of its runtime image layout (tools/deploy-checks/src/image-layout.ts) with the environment
 * its Deployment gives it (the example Secrets included), its volumes laid out here (src/pod-files.ts). First
 * what brings NATS authorization up, in the manifests' own commands: the NATS pod's init container renders
 * the accounts and users from the credentials Secret, nats-server starts on the rendered nats.conf (which
 * includes them), the services' init containers wait, the provisioning Job creates the streams, and the waits
 * end. Only what differs between a pod and this machine is overridden: addresses and ports (loopback, free
 * ports), the NATS URL (one local nats-server: no cluster block, JETSTREAM_REPLICAS=1, the store and the pid
 * file in a temporary directory). Then the probes must answer on the Deployment's paths, a lease must match the
 * AsyncAPI document, and a stream must go through gateway, NATS, normalizer and back.
 * DEPLOY_CHECKS_NODE names another node binary for the apps (the image's release, to try the code on it).
 */
const root = repoRoot();
const model = loadOverlay(root, 'dev');
const APPS = ['replay-provider', 'gateway', 'normalizer'] as const;
const DEV_API_KEY = 'dev-key-acme';

interface Running {
  readonly process: ManagedProcess;
  readonly baseUrl: string;
  readonly env: Readonly<Record<string, string>>;
  readonly probes: { readonly liveness: string; readonly readiness: string };
}

const secrets = renderedSecrets(model.objects);
const parsedCredentials = parseNatsCredentials(secrets[NATS_SECRET]?.[CREDENTIALS_KEY] ?? '');
if (!parsedCredentials.ok) throw new Error(`the dev NATS credentials: ${parsedCredentials.error.message}`);
const credentials = parsedCredentials.value;
const pods = new PodRunner(root, model.objects, secrets);
let natsUrl = '';
let nc: NatsConnection | undefined;
const running = new Map<string, Running>();

function entryOf(app: string): (typeof model.apps)[number] {
  const entry = model.apps.find((candidate) => candidate.app === app);
  if (entry === undefined) throw new Error(`the dev overlay does not run ${app}`);
  return entry;
}

async function start(app: (typeof APPS)[number], overrides: Readonly<Record<string, string>>): Promise<Running> {
  const { workload, container, facts } = entryOf(app);
  const stage = pods.stagedLayout(app);
  const { env, problems } = containerEnvironment(resolveEnv(model.objects, container), {
    secrets,
    podName: `${workload.metadata.name}-6d9c7b5f4-x2k7p`,
  });
  if (problems.length > 0) throw new Error(problems.join('; '));
  const port = String(await getFreePort());
  const hostSetting = facts.portSetting.replace(/PORT$/, 'HOST');
  const finalEnv = { ...env, ...overrides, [facts.portSetting]: port, [hostSetting]: '127.0.0.1' };
  // Only the Deployment's variables: nothing of this machine's environment reaches the app's settings.
  const unset = Object.fromEntries(Object.keys(facts.config?.settings ?? {}).map((name) => [name, undefined]));
  const process = startProcess(globalThis.process.env['DEPLOY_CHECKS_NODE'] ?? globalThis.process.execPath, [`apps/${app}/dist/main.js`], {
    name: app,
    cwd: stage,
    env: { ...unset, NODE_ENV: 'production', ...finalEnv },
  });
  const liveness = container.livenessProbe?.httpGet?.path ?? '';
  const readiness = container.readinessProbe?.httpGet?.path ?? '';
  const started: Running = { process, baseUrl: `http://127.0.0.1:${port}`, env: finalEnv, probes: { liveness, readiness } };
  running.set(app, started);
  await waitFor(async () => (await httpStatus(`${started.baseUrl}${readiness}`)) === 200, {
    description: `${app} ready on ${readiness}\n${process.describe()}`,
    timeoutMs: 45_000,
  });
  return started;
}

beforeAll(async () => {
  natsUrl = await pods.startNats();
  await pods.provision(natsUrl, ['gateway', 'normalizer', 'audit-log']);
  // The test observes as the platform's administrator (a service's user may read only what it does).
  nc = await connectNatsUser({ servers: [natsUrl], name: 'deploy-checks-observer', user: credentials.platform.provisioner });
  const replay = await start('replay-provider', {});
  const upstream = { OPENAI_BASE_URL: replay.baseUrl, ANTHROPIC_BASE_URL: replay.baseUrl, GEMINI_BASE_URL: replay.baseUrl };
  await start('gateway', { NATS_URL: natsUrl, JETSTREAM_REPLICAS: '1', ...upstream });
  await start('normalizer', { NATS_URL: natsUrl, JETSTREAM_REPLICAS: '1' });
}, 240_000);

afterAll(async () => {
  await nc?.close();
  for (const { process } of [...running.values()].reverse()) await process.stop('SIGTERM', 30_000);
  await pods.stop();
}, 90_000);

describe('the dev overlay, run from the image layouts', () => {
  it('brings NATS authorization up with its own commands: render, serve with the include, wait, provision, waits end', () => {
    expect(pods.steps).toEqual([
      { step: 'nats-0 init container authorization', code: 0 },
      { step: 'Job provision', code: 0 },
      { step: 'gateway init container wait-for-streams', code: 0 },
      { step: 'normalizer init container wait-for-streams', code: 0 },
      { step: 'audit-log init container wait-for-streams', code: 0 },
    ]);
  });

  it('the rendered NATS refuses a connection without a user', async () => {
    await expect(connectNatsUser({ servers: [natsUrl], name: 'anonymous', user: { user: '', password: '' }, maxReconnectAttempts: 0 })).rejects.toThrow(/Authorization Violation/i);
  });

  it.each(APPS)('%s answers its liveness and readiness probes (and metrics)', async (app) => {
    const started = running.get(app);
    if (started === undefined) throw new Error(`${app} did not start`);
    expect(await httpStatus(`${started.baseUrl}${started.probes.liveness}`)).toBe(200);
    expect(await httpStatus(`${started.baseUrl}${started.probes.readiness}`)).toBe(200);
    const annotations = entryOf(app).workload.spec.template.metadata?.annotations ?? {};
    if (annotations['prometheus.io/scrape'] === 'true') {
      const metrics = await fetch(`${started.baseUrl}${annotations['prometheus.io/path'] ?? ''}`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toMatch(/^# HELP /m);
    }
  });

  it('the gateway renews its lease under its pod name and this process\'s instance, as the AsyncAPI document says', async () => {
    if (nc === undefined) throw new Error('no NATS connection');
    const subscription = nc.subscribe(`${SUBJECT_ROOTS.gatewayLease}.>`, { max: 1 });
    const received = await waitFor(async () => {
      for await (const message of subscription) return message;
      return undefined;
    }, { description: 'a lease renewal', timeoutMs: 10_000 });
    const document = loadAsyncApi(root);
    const schemas = new AsyncApiSchemas(root, document, {
      [`libs/contract/schema/llm-stream-contract.v1.schema.json`]: JSON.parse(readFileSync(join(root, 'libs/contract/schema/llm-stream-contract.v1.schema.json'), 'utf8')) as Record<string, unknown>,
    });
    const validate = schemas.compile(document.components.messages['leaseRenewal']?.payload ?? {});
    expect({ valid: validate(JSON.parse(received.string())), errors: errorsOf(validate) }).toEqual({ valid: true, errors: '' });
    const leased = parseGatewayInstanceId(received.subject.slice(SUBJECT_ROOTS.gatewayLease.length + 1));
    expect(leased).toEqual({ name: running.get('gateway')?.env['GATEWAY_ID'] ?? '', instance: expect.stringMatching(/^[0-9a-f]{8}$/) as unknown });
  });

  it('streams a recorded answer end to end with the example API key and provider key; tenant acme\'s backend finds it in its own copy', async () => {
    const gateway = running.get('gateway');
    if (gateway === undefined) throw new Error('the gateway did not start');
    const response = await fetch(`${gateway.baseUrl}/v1/streams/anthropic`, {
      method: 'POST',
      headers: { authorization: `Bearer ${DEV_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'simple_text', max_tokens: 64, messages: [{ role: 'user', content: 'Hello' }] }),
    });
    expect(response.status).toBe(200);
    const events = await collectSse(response, { timeoutMs: 30_000 });
    const types = events.map((event) => (JSON.parse(event.data) as { type: string }).type);
    expect(types[0]).toBe('stream.start');
    expect(types[types.length - 1]).toBe('stream.done');
    // A backend of tenant acme, connected as deploy/README.md tells (its user and password from the credentials),
    // finds the stream's events in its own account's copy.
    const backendUser = credentials.tenants['acme']?.backend;
    if (backendUser === undefined) throw new Error('the dev credentials have no backend of acme');
    const backend = await connectNatsUser({ servers: [natsUrl], name: 'deploy-checks-backend-acme', user: backendUser, maxReconnectAttempts: 0 });
    try {
      const jsm = await jetstreamManager(backend);
      const copied = await waitFor(async () => ((await jsm.streams.info(STREAM_NAMES.events)).state.messages >= events.length ? true : undefined), {
        description: `tenant acme's copy to hold the stream's ${String(events.length)} events`,
        timeoutMs: 10_000,
      });
      expect(copied).toBe(true);
    } finally {
      await backend.close();
    }
  });
});
