import { createServer } from 'node:net';

/** A port the OS just handed out on 127.0.0.1 and released: free unless something grabs it in between. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (typeof address !== 'object' || address === null) {
        reject(new Error('no port assigned'));
        return;
      }
      server.close(() => {
        resolve(address.port);
      });
    });
  });
}
