// A backend on NATS for bench:e2e, in its own node process: a core subscription to one tenant's contract events
// (`llm.events.<tenant>.*`, as a backend developer subscribes), which records how long each stamped delta took
// from the provider's send. A core subscriber also receives every message published again (JetStream stores it
// once, by its Nats-Msg-Id): each event counts once, as a backend must take it, and the copies are counted.
// GET / answers `{latencies, duplicates}` recorded since the last POST / (which clears them).
// NATS_URL: the bench's nats-server; BACKEND_TENANT: whose events; BACKEND_PORT: where it answers.
import { createServer } from 'node:http';
import { connect } from '@nats-io/transport-node';
import { HEADERS, tenantEventsWildcard } from '@llm-stream/contract';

const STAMP = /t=(\d+\.\d{3});/;
const now = () => performance.timeOrigin + performance.now();
const decoder = new TextDecoder();
let latencies = [];
let seen = new Set();
let duplicates = 0;

const nc = await connect({ servers: process.env.NATS_URL, name: 'bench-backend', noAsyncTraces: true });
nc.subscribe(tenantEventsWildcard(process.env.BACKEND_TENANT ?? ''), {
  callback: (_error, message) => {
    const at = now();
    const msgId = message.headers?.get(HEADERS.msgId);
    if (seen.has(msgId)) {
      duplicates += 1;
      return;
    }
    seen.add(msgId);
    const data = decoder.decode(message.data);
    const match = data.includes('"block.delta"') ? STAMP.exec(data) : null;
    if (match) latencies.push(at - Number(match[1]));
  },
});
await nc.flush();

createServer((request, response) => {
  if (request.method === 'POST') {
    latencies = [];
    seen = new Set();
    duplicates = 0;
  }
  response.setHeader('content-type', 'application/json');
  response.end(JSON.stringify({ latencies, duplicates }));
}).listen(Number(process.env.BACKEND_PORT), '127.0.0.1', () => process.stdout.write('ready\n'));
