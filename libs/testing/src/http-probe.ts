import { get } from 'node:http';

/**
 * The HTTP status of a GET to `url`, or an error. A fresh connection each time (no agent): a probe must not
 * reuse a socket to a server that was just killed.
 */
export function httpStatus(url: string, timeoutMs = 2_000): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = get(url, { agent: false, timeout: timeoutMs }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('timeout', () => {
      request.destroy(new Error(`GET ${url} timed out after ${timeoutMs} ms`));
    });
    request.on('error', reject);
  });
}
