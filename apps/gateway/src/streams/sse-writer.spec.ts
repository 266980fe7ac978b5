import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SseWriter } from './sse-writer.js';

/** A real HTTP server whose one handler writes one event through SseWriter, then ends or cuts. */
async function serve(finish: (writer: SseWriter) => void): Promise<Server> {
  const server = createServer((_request, response) => {
    const writer = new SseWriter(response, 60_000);
    writer.open('st_1');
    void writer.write({ seq: 1, type: 'stream.start', ts: 1, blockKind: undefined, json: '{}' }).then(() => {
      finish(writer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** The body as a client reads it, and whether the response completed (the chunked terminator arrived). */
function read(server: Server): Promise<{ body: string; complete: boolean }> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path: '/' }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('close', () => {
        resolve({ body, complete: response.complete });
      });
    })
      .on('error', reject)
      .end();
  });
}

describe('SseWriter', () => {
  it('end(): a complete response', async () => {
    const server = await serve((writer) => {
      writer.end();
    });
    try {
      expect(await read(server)).toStrictEqual({ body: 'id: 1\nevent: stream.start\ndata: {}\n\n', complete: true });
    } finally {
      server.close();
    }
  });

  it('cut(): the client sees an incomplete response, never a clean end (it resumes with Last-Event-ID)', async () => {
    const server = await serve((writer) => {
      writer.cut();
    });
    try {
      expect(await read(server)).toMatchObject({ complete: false });
    } finally {
      server.close();
    }
  });
});
