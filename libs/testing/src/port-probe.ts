import { connect } from 'node:net';
import { waitFor } from './wait-for.js';

const CONNECT_ATTEMPT_TIMEOUT_MS = 1_000;

/** Whether a TCP connection to `host:port` succeeds right now (the connection is closed at once). */
export function isPortOpen(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const finish = (open: boolean): void => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(CONNECT_ATTEMPT_TIMEOUT_MS, () => {
      finish(false);
    });
    socket.once('connect', () => {
      finish(true);
    });
    socket.once('error', () => {
      finish(false);
    });
  });
}

/** Waits until `host:port` accepts TCP connections; rejects after `timeoutMs` (default 10 000). */
export async function waitForPort(host: string, port: number, timeoutMs = 10_000): Promise<void> {
  await waitFor(() => isPortOpen(host, port), { timeoutMs, description: `${host}:${port} to accept connections` });
}

/** Waits until `host:port` refuses TCP connections (a stopped server really let go of it). */
export async function waitForPortClosed(host: string, port: number, timeoutMs = 10_000): Promise<void> {
  await waitFor(async () => !(await isPortOpen(host, port)), {
    timeoutMs,
    description: `${host}:${port} to stop accepting connections`,
  });
}
