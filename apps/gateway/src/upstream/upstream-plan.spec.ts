import { planUpstream, type UpstreamSettings } from './upstream-plan.js';

const settings: UpstreamSettings = {
  openai: { baseUrl: 'http://openai.test/proxy/', apiKey: 'sk-openai-key' },
  anthropic: { baseUrl: 'http://anthropic.test', apiKey: 'sk-ant-key', version: '2023-06-01' },
  gemini: { baseUrl: 'http://gemini.test', apiKey: 'gemini-key' },
};

describe('planUpstream', () => {
  it('forces streaming and usage for OpenAI chat, keeping the other stream options, under a base URL path', () => {
    const plan = planUpstream(
      'openai-chat',
      { model: 'gpt-4.1', stream: false, stream_options: { include_usage: false, x: 1 } },
      undefined,
      settings,
    );
    expect(plan).toMatchObject({ ok: true, value: { model: 'gpt-4.1', secret: 'sk-openai-key' } });
    if (!plan.ok) return;
    expect(plan.value.url.href).toBe('http://openai.test/proxy/v1/chat/completions');
    expect(JSON.parse(plan.value.body)).toStrictEqual({ model: 'gpt-4.1', stream: true, stream_options: { include_usage: true, x: 1 } });
    expect(plan.value.headers['authorization']).toBe('Bearer sk-openai-key');
  });

  it('takes the Gemini model out of the body, or from ?model=, into the URL', () => {
    const fromBody = planUpstream('gemini', { model: 'gemini-2.5-flash', contents: [] }, 'ignored', settings);
    const fromQuery = planUpstream('gemini', { contents: [] }, 'tunedModels/a b', settings);
    if (!fromBody.ok || !fromQuery.ok) throw new Error('expected plans');
    expect(fromBody.value.url.href).toBe('http://gemini.test/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    expect(JSON.parse(fromBody.value.body)).toStrictEqual({ contents: [] });
    expect(fromQuery.value.url.pathname).toBe('/v1beta/models/tunedModels%2Fa%20b:streamGenerateContent');
    expect(fromQuery.value).toMatchObject({ model: 'tunedModels/a b', secret: 'gemini-key' });
  });

  it.each([
    ['anthropic', {}, undefined],
    ['openai-responses', { model: 7 }, undefined],
    ['openai-chat', { model: 'a\nb' }, undefined],
    ['gemini', { contents: [] }, undefined],
    ['gemini', { model: 42 }, 'from-query'],
  ] as const)('refuses %s with body %j and query model %j', (provider, body, query) => {
    expect(planUpstream(provider, body, query, settings)).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });
});
