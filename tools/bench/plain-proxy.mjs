// A plain HTTP pass-through in its own node process, for bench:e2e's baseline: what one more node process on
// the path adds when it only forwards the provider's bytes (no parsing, no NATS, no storage), with pooled
// upstream connections as the gateway has them. PROXY_PORT: where it listens; PROXY_UPSTREAM: http://host:port.
import { Agent, createServer, request } from 'node:http';

const port = Number(process.env.PROXY_PORT);
const upstream = new URL(process.env.PROXY_UPSTREAM ?? '');
const agent = new Agent({ keepAlive: true, maxSockets: Infinity });

createServer((clientRequest, clientResponse) => {
  const upstreamRequest = request(
    {
      host: upstream.hostname,
      port: upstream.port,
      path: clientRequest.url,
      method: clientRequest.method,
      headers: { ...clientRequest.headers, host: upstream.host },
      agent,
    },
    (upstreamResponse) => {
      clientResponse.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.headers);
      upstreamResponse.pipe(clientResponse);
    },
  );
  upstreamRequest.on('error', () => clientResponse.destroy());
  // The client went away before the end: so does the upstream call.
  clientResponse.on('close', () => {
    if (!clientResponse.writableFinished) upstreamRequest.destroy();
  });
  clientRequest.pipe(upstreamRequest);
}).listen(port, '127.0.0.1');
