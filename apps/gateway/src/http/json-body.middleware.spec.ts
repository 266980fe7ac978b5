import 'reflect-metadata';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { HttpApiError } from '@llm-stream/service-kit';
import { jsonBody } from './json-body.middleware.js';

const LIMITS = { maxBytes: 1_024, maxDepth: 32 };

/**
 * A real HTTP server running the middleware, answering as the services' exception filter does: the body
 * parser's error types as 413/400, an HttpApiError with its status and code, else 200 with the parsed body.
 */
function startServer(): Promise<Server> {
  const middleware = jsonBody(LIMITS);
  const server = createServer((request: IncomingMessage & { body?: unknown }, response) => {
    middleware(request, response, (error?: unknown) => {
      const type = typeof error === 'object' && error !== null ? (error as { type?: unknown }).type : undefined;
      const [status, body] =
        error instanceof HttpApiError
          ? [error.status, { code: error.code }]
          : type === 'entity.too.large'
            ? [413, { code: 'body_too_large' }]
            : type === 'entity.parse.failed'
              ? [400, { code: 'invalid_json' }]
              : [200, { body: request.body ?? null }];
      const text = JSON.stringify(body);
      response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve(server);
    });
  });
}

/** Sends raw request bytes, reads until the server answers; `keepOpen`: the request body never ends. */
function exchange(server: Server, head: string, body: Buffer | string = ''): Promise<{ status: number; text: string; closed: boolean }> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0);
      resolve({ status, text: received.slice(received.indexOf('\r\n\r\n') + 4), closed: true });
    });
    socket.write(head);
    if (body.length > 0) socket.write(body);
  });
}

describe('jsonBody (MAX_BODY_BYTES, MAX_JSON_DEPTH)', () => {
  let server: Server;

  beforeAll(async () => {
    server = await startServer();
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const post = (headers: string): string => `POST /v1/streams/openai-chat HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n${headers}\r\n`;

  it('answers 413 to a declared 10 GB body before reading any of it, and closes the connection', async () => {
    // Not a byte of the body is sent: the answer must come from the header alone.
    const reply = await exchange(server, post('content-length: 10737418240\r\n'));
    expect(reply).toMatchObject({ status: 413, closed: true });
    expect(JSON.parse(reply.text)).toEqual({ code: 'body_too_large' });
  });

  it('answers 413 to a chunked body as soon as it passes the limit, while the client is still sending', async () => {
    const chunk = 'x'.repeat(600);
    const frame = `${(chunk.length).toString(16)}\r\n${chunk}\r\n`;
    // Two chunks (1,200 bytes) pass the limit; the terminating chunk is never sent.
    const reply = await exchange(server, post('transfer-encoding: chunked\r\n'), frame + frame);
    expect(reply).toMatchObject({ status: 413, closed: true });
  });

  it('counts the decoded size of a compressed body', async () => {
    const bomb = gzipSync(Buffer.from(JSON.stringify({ text: ' '.repeat(100_000) })));
    expect(bomb.length).toBeLessThan(LIMITS.maxBytes);
    const reply = await exchange(server, post(`content-encoding: gzip\r\ncontent-length: ${String(bomb.length)}\r\nconnection: close\r\n`), bomb);
    expect(reply.status).toBe(413);
  });

  it('answers 400 invalid_request to 100,000 levels of nesting, without a stack overflow', async () => {
    const big = jsonBody({ maxBytes: 1_000_000, maxDepth: 128 });
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const local = createServer((request, response) => {
      big(request, response, (error?: unknown) => {
        const status = error instanceof HttpApiError ? error.status : 200;
        const text = error instanceof HttpApiError ? error.code : 'parsed';
        response.writeHead(status, { 'content-length': text.length }).end(text);
      });
    });
    await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
    try {
      const reply = await exchange(local, post(`content-length: ${String(deep.length)}\r\nconnection: close\r\n`), deep);
      expect(reply).toMatchObject({ status: 400, text: 'invalid_request' });
    } finally {
      local.closeAllConnections();
      await new Promise((resolve) => local.close(resolve));
    }
  });

  it('reads a body within the limits, brackets inside strings not counted as depth', async () => {
    const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[' }] });
    const reply = await exchange(server, post(`content-length: ${String(body.length)}\r\nconnection: close\r\n`), body);
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.text)).toEqual({ body: JSON.parse(body) });
  });

  it('answers 400 invalid_json to a body that is not JSON, and {} to an empty one', async () => {
    expect((await exchange(server, post('content-length: 5\r\nconnection: close\r\n'), '{oops')).text).toBe('{"code":"invalid_json"}');
    expect((await exchange(server, post('content-length: 0\r\nconnection: close\r\n'))).text).toBe('{"body":{}}');
  });
});
