import { request as httpRequest, type IncomingMessage, type ClientRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { UpstreamPlan } from './upstream-plan.js';

/** What happens on the upstream connection, in order. */
export interface UpstreamListener {
  /** The status line and headers arrived. */
  response(status: number, headers: IncomingMessage['headers']): void;
  /** Body bytes, as soon as they are received. */
  data(chunk: Buffer): void;
  /** The body ended cleanly. */
  end(): void;
  /** The connection failed: before a response (`connect`) or while the body was streaming (`transport`). */
  failed(phase: 'connect' | 'transport', detail: string): void;
}

export interface UpstreamCall {
  /** Closes the connection; no listener call follows. */
  abort(): void;
}

/**
 * One upstream request over node:http(s). The body is read eagerly from the first byte (a 'data' listener is
 * attached before anything else can run), so bytes received before a cut are never lost — unlike Node 20's
 * fetch, which drops them when the socket dies before the reader starts. The listener sees exactly one of
 * end/failed, and nothing after abort().
 */
export function callUpstream(plan: UpstreamPlan, connectTimeoutMs: number, listener: UpstreamListener): UpstreamCall {
  let settled = false;
  let responded = false;
  const settle = (action: () => void): void => {
    if (settled) return;
    settled = true;
    clearTimeout(connectTimer);
    action();
  };
  const send = plan.url.protocol === 'https:' ? httpsRequest : httpRequest;
  const request: ClientRequest = send(plan.url, { method: 'POST', headers: { ...plan.headers, 'content-length': Buffer.byteLength(plan.body) } });
  const connectTimer = setTimeout(() => {
    settle(() => {
      listener.failed('connect', `no response within ${String(connectTimeoutMs)} ms`);
    });
    request.destroy();
  }, connectTimeoutMs);

  request.on('response', (response) => {
    clearTimeout(connectTimer);
    if (settled) {
      response.destroy();
      return;
    }
    responded = true;
    response.socket.setNoDelay(true);
    listener.response(response.statusCode ?? 0, response.headers);
    response.on('data', (chunk: Buffer) => {
      if (!settled) listener.data(chunk);
    });
    response.on('end', () => {
      settle(() => {
        listener.end();
      });
    });
    response.on('error', (error) => {
      settle(() => {
        listener.failed('transport', describe(error));
      });
    });
    response.on('close', () => {
      if (response.complete) return;
      settle(() => {
        listener.failed('transport', 'connection closed before the end of the body');
      });
    });
  });
  request.on('error', (error) => {
    settle(() => {
      listener.failed(responded ? 'transport' : 'connect', describe(error));
    });
  });
  request.end(plan.body);

  return {
    abort(): void {
      settled = true;
      clearTimeout(connectTimer);
      request.destroy();
    },
  };
}

function describe(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code ? `${code}: ${error.message}` : error.message;
}
