import { createServer, type Server } from 'node:net';
import { getFreePort } from './free-port.js';
import { isPortOpen, waitForPort, waitForPortClosed } from './port-probe.js';

function listen(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.destroy());
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      resolve(server);
    });
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => {
    resolve();
  }));
}

describe('getFreePort and the port probes', () => {
  it('returns a port that can be bound and is closed until then', async () => {
    const port = await getFreePort();

    expect(port).toBeGreaterThan(0);
    expect(await isPortOpen('127.0.0.1', port)).toBe(false);
    const server = await listen(port);
    expect(await isPortOpen('127.0.0.1', port)).toBe(true);
    await close(server);
  });

  it('waitForPort resolves once a listener appears and waitForPortClosed once it is gone', async () => {
    const port = await getFreePort();
    const opened = waitForPort('127.0.0.1', port, 5_000);
    const server = await listen(port);
    await opened;

    const closed = waitForPortClosed('127.0.0.1', port, 5_000);
    await close(server);
    await closed;

    expect(await isPortOpen('127.0.0.1', port)).toBe(false);
  });

  it('waitForPort rejects naming the address when nothing listens', async () => {
    const port = await getFreePort();

    await expect(waitForPort('127.0.0.1', port, 100)).rejects.toThrow(`127.0.0.1:${port} to accept connections`);
  });
});
