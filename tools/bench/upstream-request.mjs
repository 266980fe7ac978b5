// What the benches' pass-through processes (plain-proxy.mjs, nats-relay.mjs) share: the client's request sent
// on to the upstream over a pooled connection, as the gateway sends it to a provider.
import { Agent, request } from 'node:http';

const agent = new Agent({ keepAlive: true, maxSockets: Infinity });

/**
 * Sends the client's request to `upstream` (a URL) and hands its response to `onResponse`. An upstream that
 * fails cuts the client's connection; a client that goes away before the end ends the upstream call too.
 */
export function forwardRequest(upstream, clientRequest, clientResponse, onResponse) {
  const upstreamRequest = request(
    {
      host: upstream.hostname,
      port: upstream.port,
      path: clientRequest.url,
      method: clientRequest.method,
      headers: { ...clientRequest.headers, host: upstream.host },
      agent,
    },
    onResponse,
  );
  upstreamRequest.on('error', () => clientResponse.destroy());
  clientResponse.on('close', () => {
    if (!clientResponse.writableFinished) upstreamRequest.destroy();
  });
  clientRequest.pipe(upstreamRequest);
}
