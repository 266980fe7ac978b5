import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, startProcess, waitFor } from '@llm-stream/testing';
import { canonical, normalizedInProcess, sequenceProblems } from './support/event-checks.js';
import { postStream } from './support/gateway-client.js';
import { startPipeline, type Pipeline } from './support/pipeline.js';
import { readRawTrace } from './support/raw-trace.js';
import { loggedRequests } from './support/replay-control.js';
import { GATEWAY_TEST_ENV, startReplayProvider, type RunningService } from './support/services.js';
import { prepareTranscriptsDir, transcriptBytes } from './support/transcripts.js';

// Three upstreams besides the pipeline's own replay provider, each requiring its own key in its own header.
const VLLM_KEY = 'sk-vllm-e2e-5b1f07c2d9';
const GROQ_KEY = 'gsk-groq-e2e-8e33a4f61c';
const AZURE_KEY = 'azure-e2e-0c9d7be24a51';

const chatBody = (model: string): Record<string, unknown> => ({ model, messages: [{ role: 'user', content: 'Hi' }] });

/** A Kubernetes-style secret volume: `key -> ..data/key`, `..data -> ..<version>`; writing a version swaps `..data`. */
function writeSecretVolume(dir: string, version: string, value: string): void {
  mkdirSync(join(dir, `..${version}`), { recursive: true });
  writeFileSync(join(dir, `..${version}`, 'key'), `${value}\n`);
  rmSync(join(dir, '..data_tmp'), { force: true });
  symlinkSync(`..${version}`, join(dir, '..data_tmp'));
  renameSync(join(dir, '..data_tmp'), join(dir, '..data'));
}

describe('upstream routes: several OpenAI-compatible upstreams and an Azure deployment behind one gateway', () => {
  let dir: string;
  let transcripts: string;
  let vllm: RunningService;
  let groq: RunningService;
  let azure: RunningService;
  let pipeline: Pipeline;
  let routesFile: string;

  const routeConfig = (extra: Record<string, unknown> = {}): string =>
    JSON.stringify({
      routes: {
        vllm: { protocol: 'openai-chat', base_url: vllm.url, auth: { header: 'authorization', scheme: 'Bearer', secret: { env: 'VLLM_API_KEY' } } },
        groq: { protocol: 'openai-chat', base_url: groq.url, auth: { header: 'authorization', scheme: 'Bearer', secret: { file: join(dir, 'groq-key') } } },
        'azure-eu': {
          protocol: 'openai-chat',
          base_url: azure.url,
          path_style: { kind: 'azure', api_version: '2024-10-21' },
          auth: { header: 'api-key', secret: { file: join(dir, 'azure', 'key') } },
          retry: { max_attempts: 1 },
        },
        ...extra,
      },
      aliases: { fast: { route: 'groq', model: 'multi_block' }, 'gpt-eu': { route: 'azure-eu', model: 'simple_text' } },
      tenants: { globex: { routes: ['vllm'], aliases: ['gpt-eu'] } },
    });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'llm-stream-e2e-routes-'));
    transcripts = prepareTranscriptsDir();
    [vllm, groq, azure] = await Promise.all([
      startReplayProvider(transcripts, VLLM_KEY, 'replay-vllm'),
      startReplayProvider(transcripts, GROQ_KEY, 'replay-groq'),
      startReplayProvider(transcripts, AZURE_KEY, 'replay-azure'),
    ]);
    writeFileSync(join(dir, 'groq-key'), GROQ_KEY);
    writeSecretVolume(join(dir, 'azure'), '1', AZURE_KEY);
    symlinkSync('..data/key', join(dir, 'azure', 'key'));
    routesFile = join(dir, 'routes.json');
    writeFileSync(routesFile, routeConfig());
    pipeline = await startPipeline({ gatewayEnv: { GATEWAY_ROUTES_FILE: routesFile, VLLM_API_KEY: VLLM_KEY } });
  });

  afterAll(async () => {
    await pipeline.stop();
    await Promise.all([vllm, groq, azure].map((service) => service.process.stop('SIGTERM', 5_000)));
    rmSync(transcripts, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  });

  const expected = (caseName: string, model: string, route: string) =>
    normalizedInProcess('openai-chat', transcriptBytes(transcripts, 'openai-chat', caseName), model, 'acme', route);

  it('serves streams from the three upstreams at once, each with its own key, path and route field', async () => {
    const [fromVllm, fromGroq, fromAzure, fromDefault] = await Promise.all([
      postStream(pipeline.gatewayUrl, 'vllm', chatBody('parallel_tools')),
      postStream(pipeline.gatewayUrl, 'groq', chatBody('tool_fragmented_json')),
      postStream(pipeline.gatewayUrl, 'azure-eu', chatBody('simple_text')),
      postStream(pipeline.gatewayUrl, 'openai-chat', chatBody('multi_block')),
    ]);
    for (const reply of [fromVllm, fromGroq, fromAzure]) expect(sequenceProblems(reply.events)).toStrictEqual([]);
    expect(canonical(fromVllm.events)).toStrictEqual(canonical(expected('parallel_tools', 'parallel_tools', 'vllm')));
    expect(canonical(fromGroq.events)).toStrictEqual(canonical(expected('tool_fragmented_json', 'tool_fragmented_json', 'groq')));
    expect(canonical(fromAzure.events)).toStrictEqual(canonical(expected('simple_text', 'simple_text', 'azure-eu')));
    expect(fromDefault.events[0]).toMatchObject({ type: 'stream.start', provider: 'openai-chat', route: 'openai-chat' });

    const [vllmLog] = await loggedRequests(vllm.url, 'parallel_tools');
    const [groqLog] = await loggedRequests(groq.url, 'tool_fragmented_json');
    const [azureLog] = await loggedRequests(azure.url, 'simple_text');
    expect(vllmLog).toMatchObject({ path: '/v1/chat/completions', status: 200, headers: { authorization: `Bearer ${VLLM_KEY}` } });
    expect(groqLog).toMatchObject({ path: '/v1/chat/completions', status: 200, headers: { authorization: `Bearer ${GROQ_KEY}` } });
    expect(azureLog).toMatchObject({ path: '/openai/deployments/simple_text/chat/completions', status: 200, headers: { 'api-key': AZURE_KEY } });
    expect(azureLog?.headers['authorization']).toBeUndefined();

    // The raw trace names the route too, so the normalizer's stream.start carries it.
    const trace = await readRawTrace(pipeline.nc, pipeline.jsm, 'acme', fromAzure.streamId!);
    expect(trace[0]).toMatchObject({ kind: 'stream.open', provider: 'openai-chat', route: 'azure-eu', model: 'simple_text' });
    const stored = await pipeline.acmeEvents.waitForTerminal(fromAzure.streamId!);
    expect(stored[0]).toMatchObject({ type: 'stream.start', route: 'azure-eu' });
  });

  it('resolves a model alias posted to the protocol or to its route; the event keeps the alias as the model', async () => {
    const viaProtocol = await postStream(pipeline.gatewayUrl, 'openai-chat', chatBody('fast'));
    const viaRoute = await postStream(pipeline.gatewayUrl, 'groq', chatBody('fast'));
    for (const reply of [viaProtocol, viaRoute]) {
      expect(reply.status).toBe(200);
      expect(canonical(reply.events)).toStrictEqual(canonical(expected('multi_block', 'fast', 'groq')));
    }
    const requests = await loggedRequests(groq.url, 'multi_block');
    expect(requests).toHaveLength(2);
    expect(requests.map((request) => (request.body as { model: string }).model)).toStrictEqual(['multi_block', 'multi_block']);
  });

  it('keeps a tenant to its allow-list with a typed 403, before any upstream call', async () => {
    const before = (await loggedRequests(groq.url)).length;
    const route = await postStream(pipeline.gatewayUrl, 'groq', chatBody('simple_text'), { key: 'globex' });
    expect(route).toMatchObject({ status: 403, json: { error: { code: 'route_not_allowed', message: 'tenant globex may not use route "groq"' } } });
    const alias = await postStream(pipeline.gatewayUrl, 'openai-chat', chatBody('fast'), { key: 'globex' });
    expect(alias).toMatchObject({ status: 403, json: { error: { code: 'route_not_allowed', message: 'tenant globex may not use model alias "fast"' } } });
    const protocol = await postStream(pipeline.gatewayUrl, 'anthropic', { model: 'simple_text', max_tokens: 10, messages: [] }, { key: 'globex' });
    expect(protocol).toMatchObject({ status: 403, json: { error: { code: 'route_not_allowed' } } });
    expect((await loggedRequests(groq.url)).length).toBe(before);

    const allowed = await postStream(pipeline.gatewayUrl, 'openai-chat', chatBody('gpt-eu'), { key: 'globex' });
    expect(allowed.status).toBe(200);
    expect(allowed.events[0]).toMatchObject({ type: 'stream.start', tenant: 'globex', model: 'gpt-eu', route: 'azure-eu' });
    expect(allowed.events.at(-1)).toMatchObject({ type: 'stream.done', status: 'completed' });
  });

  it('answers 404 for an unknown route and 400 for an alias of another protocol', async () => {
    const unknown = await postStream(pipeline.gatewayUrl, 'mistral', chatBody('x'));
    expect(unknown).toMatchObject({ status: 404, json: { error: { code: 'unknown_provider', message: expect.stringContaining('azure-eu') as unknown } } });
    const mismatch = await postStream(pipeline.gatewayUrl, 'anthropic', { model: 'fast', max_tokens: 10, messages: [] });
    expect(mismatch).toMatchObject({ status: 400, json: { error: { code: 'invalid_request' } } });
  });

  it('uses a rotated key file on the next stream (..data symlink swap), and never records a route key', async () => {
    const rotated = 'azure-e2e-rotated-77f0e1c3';
    writeSecretVolume(join(dir, 'azure'), '2', rotated);
    const refused = await postStream(pipeline.gatewayUrl, 'azure-eu', chatBody('refusal'));
    // The upstream still wants the old key: the rotated one was sent, and refused (one attempt on this route).
    expect(refused.events.at(-1)).toMatchObject({ type: 'stream.error', error: { category: 'authentication' } });
    const [log] = await loggedRequests(azure.url, 'refusal');
    expect(log?.headers['api-key']).toBe(rotated);
    writeSecretVolume(join(dir, 'azure'), '3', AZURE_KEY);
    const served = await postStream(pipeline.gatewayUrl, 'azure-eu', chatBody('refusal'));
    expect(served.events.at(-1)).toMatchObject({ type: 'stream.done', status: 'completed' });

    for (const line of pipeline.services().flatMap((service) => service.process.lines)) {
      for (const key of [VLLM_KEY, GROQ_KEY, AZURE_KEY, rotated]) expect(line).not.toContain(key);
    }
  });

  it('reloads a changed route file, and keeps the last good routes when the new file is bad', async () => {
    const gateway = pipeline.gateways[0]!;
    writeFileSync(routesFile, routeConfig({ ollama: { protocol: 'openai-chat', base_url: vllm.url, auth: { header: 'authorization', scheme: 'Bearer', secret: { env: 'VLLM_API_KEY' } } } }));
    await waitFor(async () => (await postStream(pipeline.gatewayUrl, 'ollama', chatBody('simple_text'))).status === 200, {
      timeoutMs: 10_000,
      intervalMs: 200,
      description: 'the reloaded route file to add route ollama',
    });
    await gateway.process.waitForLine(/"msg":"routes reloaded"/, 5_000);

    writeFileSync(routesFile, '{"routes": {"broken": {"protocol": "openai", "base_url": "http://x"}}}');
    // The file is looked at when a stream needs the table (at most once a second): stream until it was.
    const refusal = await waitFor(
      async () => {
        const reply = await postStream(pipeline.gatewayUrl, 'ollama', chatBody('simple_text'));
        expect(reply.status).toBe(200);
        return gateway.process.lines.find((line) => line.includes('route file refused, the last good routes stay in force'));
      },
      { timeoutMs: 10_000, intervalMs: 300, description: 'the gateway to refuse the bad route file' },
    );
    expect(refusal).toMatch(/route \\"broken\\": protocol must be/);
    const stillServed = await postStream(pipeline.gatewayUrl, 'ollama', chatBody('simple_text'));
    expect(stillServed.status).toBe(200);
    expect(stillServed.events[0]).toMatchObject({ route: 'ollama' });
  });

  it('refuses to start on a bad route file, naming the variable and the field', async () => {
    const bad = join(dir, 'bad-routes.json');
    writeFileSync(bad, JSON.stringify({ routes: { groq: { protocol: 'openai-chat', base_url: 'http://x.test', auth: { header: 'authorization', secret: 'gsk-inline' } } } }));
    const child = startProcess(process.execPath, [join(repoRoot(), 'apps', 'gateway', 'dist', 'main.js')], {
      name: 'gateway-bad-routes',
      env: { ...GATEWAY_TEST_ENV, NATS_URL: pipeline.nats.url, HTTP_PORT: '0', GATEWAY_ROUTES_FILE: bad },
    });
    const exit = await child.waitForExit(20_000);
    expect(exit.code).toBe(1);
    const line = child.lines.find((text) => text.includes('"variable":"GATEWAY_ROUTES_FILE"'));
    expect(line).toMatch(/route \\"groq\\": auth.secret must be/);
    expect(line).not.toContain('gsk-inline');
  });
});
