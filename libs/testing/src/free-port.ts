import { createServer } from 'node:net';

/**
 * Returns a TCP port on 127.0.0.1 that was free a moment ago: the OS picks it (listen on port 0), then the
 * listener is closed. Another process can still take it before the caller binds it, so launchers that choose
 * the port themselves retry with a fresh one when the bind fails.
 */
export function getFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: 0, exclusive: true }, () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        server.close();
        reject(new Error(`unexpected listener address ${String(address)}`));
        return;
      }
      const { port } = address;
      server.close((error) => {
        if (error) {
          reject(error);
        } else {
          resolve(port);
        }
      });
    });
  });
}
