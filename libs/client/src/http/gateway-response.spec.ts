import { GatewayError } from './gateway-error.js';
import { gatewayFailure, isEventStream, isTransient } from './gateway-response.js';
import { HttpStreamError } from './http-stream-error.js';

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

describe('reading a non-stream answer', () => {
  it('gives a GatewayError with the code, status, message and Retry-After of the gateway\'s error body', async () => {
    const error = await gatewayFailure(json(503, { error: { code: 'overloaded', message: 'busy' } }, { 'retry-after': '2' }));
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ code: 'overloaded', status: 503, message: 'busy', retryAfterSeconds: 2 });
    expect(isTransient(error, 503)).toBe(true);
  });

  it('treats a body that is not the gateway\'s (a proxy page, an unknown code) as unexpected_response', async () => {
    const page = await gatewayFailure(new Response('<html>Bad Gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } }));
    expect(page).toBeInstanceOf(HttpStreamError);
    expect(page).toMatchObject({ code: 'unexpected_response', message: 'HTTP 502 (text/html): <html>Bad Gateway</html>' });
    expect(isTransient(page, 502)).toBe(true);
    const unknown = await gatewayFailure(json(418, { error: { code: 'teapot', message: 'no' } }));
    expect(unknown).toMatchObject({ code: 'unexpected_response' });
    expect(isTransient(unknown, 418)).toBe(false);
  });

  it('retries only what may pass: unavailable, overloaded and internal, never a refusal', async () => {
    for (const [code, status, transient] of [
      ['unavailable', 503, true],
      ['internal', 500, true],
      ['not_found', 404, false],
      ['unauthorized', 401, false],
    ] as const) {
      expect(isTransient(await gatewayFailure(json(status, { error: { code, message: code } })), status)).toBe(transient);
    }
  });

  it('takes only a 200 text/event-stream with a body for a stream', () => {
    expect(isEventStream(new Response('', { status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8' } }))).toBe(true);
    expect(isEventStream(new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } }))).toBe(false);
    expect(isEventStream(json(404, {}))).toBe(false);
  });
});
