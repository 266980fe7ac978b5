// Whether a TCP port can be listened on, so a taken port is reported before anything starts.
import { createServer } from 'node:net';

export function portIsFree(host, port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(true)));
  });
}
