// A plain HTTP pass-through in its own node process, for bench:e2e's baseline: what one more node process on
// the path adds when it only forwards the provider's bytes (no parsing, no NATS, no storage), with pooled
// upstream connections as the gateway has them. PROXY_PORT: where it listens; PROXY_UPSTREAM: http://host:port.
import { createServer } from 'node:http';
import { forwardRequest } from './upstream-request.mjs';

const port = Number(process.env.PROXY_PORT);
const upstream = new URL(process.env.PROXY_UPSTREAM ?? '');

createServer((clientRequest, clientResponse) => {
  forwardRequest(upstream, clientRequest, clientResponse, (upstreamResponse) => {
    clientResponse.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.headers);
    upstreamResponse.pipe(clientResponse);
  });
}).listen(port, '127.0.0.1');
