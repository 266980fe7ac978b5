import { loggedRequests, registerScenario, waitFor } from './support/control.js';
import { authHeader, providerRequest } from './support/endpoints.js';
import { exchange } from './support/http-exchange.js';
import { startReplay, type ReplayServer } from './support/replay-process.js';

let server: ReplayServer;
beforeAll(async () => {
  server = await startReplay();
});
afterAll(async () => {
  await server.stop();
});

async function post(path: string, body: string): Promise<{ status: number; json: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const response = await fetch(new URL(path, server.url), { method: 'POST', body });
  return { status: response.status, json: await response.json() };
}

describe('request log', () => {
  it('records method, path, query, headers and the parsed body of each provider request', async () => {
    const id = await registerScenario(server.url, { responses: [{ transcript: 'simple_text' }] });
    const { path, body } = providerRequest('gemini', `scenario:${id}`);
    await exchange(server.url, `${path}&trace=a&trace=b`, body, { headers: { ...authHeader('gemini', 'key-1'), 'x-custom': 'yes' } });
    const [logged, ...others] = await loggedRequests(server.url, { scenario: id });
    expect(others).toEqual([]);
    expect(logged).toMatchObject({
      provider: 'gemini',
      model: `scenario:${id}`,
      scenario: id,
      method: 'POST',
      path: `/v1beta/models/scenario%3A${id}:streamGenerateContent`,
      query: { alt: 'sse', trace: ['a', 'b'] },
      headers: { 'x-goog-api-key': 'key-1', 'x-custom': 'yes' },
      body,
      status: 200,
      served: 'transcript:gemini/simple_text',
      client_aborted: false,
      aborted_at: null,
    });
    expect(logged!.finished_at).toBeGreaterThanOrEqual(logged!.started_at);
  });

  it('shows what a gateway forced upstream (stream, include_usage, key)', async () => {
    await exchange(server.url, '/v1/chat/completions', { model: 'multi_block', stream: true, stream_options: { include_usage: true } }, {
      headers: authHeader('openai-chat', 'sk-test'),
    });
    const [logged] = await loggedRequests(server.url, { model: 'multi_block' });
    expect(logged!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(logged!.headers['authorization']).toBe('Bearer sk-test');
  });

  it('records a client abort with its time', async () => {
    const id = await registerScenario(server.url, { responses: [{ transcript: 'simple_text', stall_after_frames: 1, stall_ping_interval_ms: 5 }] });
    const { path, body } = providerRequest('anthropic', id);
    await exchange(server.url, path, body, {
      onChunk: (_, abort) => {
        abort();
      },
    });
    const [logged] = await waitFor(() => loggedRequests(server.url, { scenario: id }), (list) => list[0]?.client_aborted === true, 'abort');
    expect(logged!.aborted_at).toBeGreaterThanOrEqual(logged!.started_at);
    expect(logged!.finished_at).toBeNull();
  });

  it('DELETE clears it', async () => {
    await exchange(server.url, '/v1/messages', { model: 'simple_text' });
    expect((await loggedRequests(server.url)).length).toBeGreaterThan(0);
    const response = await fetch(new URL('/_replay/requests', server.url), { method: 'DELETE' });
    expect(response.status).toBe(204);
    expect(await loggedRequests(server.url)).toEqual([]);
  });
});

describe('scenario validation', () => {
  const ok = { transcript: 'simple_text' };
  it.each([
    ['not an object', [1], ''],
    ['no responses', {}, 'responses'],
    ['empty responses', { responses: [] }, 'responses'],
    ['unknown top-level field', { responses: [ok], extra: 1 }, 'extra'],
    ['bad id', { id: 'mine', responses: [ok] }, 'id'],
    ['no kind', { responses: [{}] }, 'responses[0]'],
    ['two kinds', { responses: [{ status: 500, body: 'x', transcript: 'simple_text' }] }, 'responses[0]'],
    ['status out of range', { responses: [{ status: 99, body: 'x' }] }, 'responses[0].status'],
    ['missing error body', { responses: [{ status: 500 }] }, 'responses[0].body'],
    ['negative retry_after', { responses: [{ status: 429, body: 'x', retry_after: -1 }] }, 'responses[0].retry_after'],
    ['header with a newline', { responses: [{ status: 500, body: 'x', headers: { 'x-a': 'b\nc' } }] }, 'responses[0].headers.x-a'],
    ['delivery field on an error', { responses: [{ status: 500, body: 'x', chunk_bytes: 3 }] }, 'responses[0].chunk_bytes'],
    ['chunk_bytes 0', { responses: [{ ...ok, chunk_bytes: 0 }] }, 'responses[0].chunk_bytes'],
    ['fractional cut', { responses: [{ ...ok, cut_after_bytes: 1.5 }] }, 'responses[0].cut_after_bytes'],
    ['string delay', { responses: [{ ...ok, frame_delay_ms: '5' }] }, 'responses[0].frame_delay_ms'],
    ['typo', { responses: [ok, { ...ok, chunk_size: 3 }] }, 'responses[1].chunk_size'],
    ['unknown end', { responses: [{ ...ok, end: 'later' }] }, 'responses[0].end'],
    ['ping interval without stall', { responses: [{ ...ok, stall_ping_interval_ms: 5 }] }, 'responses[0].stall_ping_interval_ms'],
    ['unknown case', { responses: [{ transcript: 'no_such_case' }] }, 'responses[0].transcript'],
    ['path in case', { responses: [{ transcript: '../README' }] }, 'responses[0].transcript'],
    ['unknown provider', { responses: [{ transcript: { provider: 'mistral', case: 'simple_text' } }] }, 'responses[0].transcript.provider'],
    ['unknown provider case', { responses: [{ transcript: { provider: 'gemini', case: 'nope' } }] }, 'responses[0].transcript.case'],
    ['synthetic without frames', { responses: [{ synthetic: { frame_interval_ms: 1 } }] }, 'responses[0].synthetic.frames'],
    ['synthetic without interval', { responses: [{ synthetic: { frames: 1 } }] }, 'responses[0].synthetic.frame_interval_ms'],
    ['synthetic 0 frames', { responses: [{ synthetic: { frames: 0, frame_interval_ms: 1 } }] }, 'responses[0].synthetic.frames'],
  ])('%s → 400 naming the field', async (_, body, field) => {
    const { status, json } = await post('/_replay/scenarios', JSON.stringify(body));
    expect(status).toBe(400);
    expect(json.error).toMatchObject({ code: 'invalid_scenario', field });
    expect(json.error.message).toContain(field === '' ? 'body' : field);
  });

  it('invalid JSON → 400 invalid_json', async () => {
    const { status, json } = await post('/_replay/scenarios', '{"responses": [');
    expect(status).toBe(400);
    expect(json.error.code).toBe('invalid_json');
  });

  it('a valid scenario → 201 {id}', async () => {
    const { status, json } = await post('/_replay/scenarios', JSON.stringify({ responses: [{ synthetic: { frames: 1, frame_interval_ms: 0 } }] }));
    expect(status).toBe(201);
    expect(json.id).toMatch(/^sc_/);
  });
});

describe('routing', () => {
  it('GET /_replay/health → 200', async () => {
    const response = await fetch(new URL('/_replay/health', server.url));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it.each([
    ['GET', '/'],
    ['POST', '/v1/completions'],
    ['POST', '/v1beta/models/simple_text:generateContent'],
    ['GET', '/_replay/nope'],
  ])('%s %s → 404', async (method, path) => {
    const response = await fetch(new URL(path, server.url), { method, ...(method === 'POST' ? { body: '{}' } : {}) });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });

  it('a known path with the wrong method → 405 with Allow', async () => {
    const provider = await fetch(new URL('/v1/chat/completions', server.url));
    const control = await fetch(new URL('/_replay/health', server.url), { method: 'POST' });
    expect([provider.status, provider.headers.get('allow')]).toEqual([405, 'POST']);
    expect([control.status, control.headers.get('allow')]).toEqual([405, 'GET']);
  });
});
