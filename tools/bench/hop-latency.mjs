// The latency one process-to-process hop costs on this machine, at a pace that lets the receiver go idle between
// messages (a frame every 20 ms, as bench:e2e's paced load sends per stream). The pipeline's path crosses more
// hops than a direct call, and each costs at least this, whatever the services do with the message.
import { fork } from 'node:child_process';
import { createServer, connect } from 'node:net';

const now = () => performance.timeOrigin + performance.now();
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * One TCP hop between two node processes: a child process writes a timestamp every `intervalMs`, this process
 * reads it. Resolves with the p50 latency in ms.
 */
export function tcpHopLatency({ count, intervalMs }) {
  return new Promise((resolve, reject) => {
    const latencies = [];
    const server = createServer((socket) => {
      let buffer = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk) => {
        const at = now();
        buffer += chunk;
        for (let end = buffer.indexOf('\n'); end !== -1; end = buffer.indexOf('\n')) {
          latencies.push(at - Number(buffer.slice(0, end)));
          buffer = buffer.slice(end + 1);
        }
      });
      socket.on('end', () => {
        server.close();
        resolve(median(latencies));
      });
    });
    server.listen(0, '127.0.0.1', () => {
      const child = fork(import.meta.filename, ['--hop-sender', String(server.address().port), String(count), String(intervalMs)]);
      child.on('error', reject);
      child.on('exit', (code) => {
        if (code !== 0) reject(new Error(`the hop sender exited with ${String(code)}`));
      });
    });
  });
}

/**
 * Publish -> nats-server -> subscriber, on two connections of this process (one pass, two hops): a stamped core message
 * every `intervalMs`. Resolves with the p50 latency in ms.
 */
export async function natsHopsLatency(publisher, subscriber, { count, intervalMs }) {
  const latencies = [];
  const decoder = new TextDecoder();
  const subscription = subscriber.subscribe('bench.hop', {
    callback: (_error, message) => {
      latencies.push(now() - Number(decoder.decode(message.data)));
    },
  });
  await subscriber.flush();
  for (let sent = 0; sent < count; sent += 1) {
    publisher.publish('bench.hop', now().toFixed(3));
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  await publisher.flush();
  await subscriber.flush();
  subscription.unsubscribe();
  return median(latencies);
}

// The child side of tcpHopLatency.
if (process.argv[2] === '--hop-sender') {
  const [port, count, intervalMs] = process.argv.slice(3).map(Number);
  const socket = connect(port, '127.0.0.1', () => {
    let sent = 0;
    const timer = setInterval(() => {
      socket.write(`${now().toFixed(3)}\n`);
      sent += 1;
      if (sent === count) {
        clearInterval(timer);
        socket.end();
      }
    }, intervalMs);
  });
}
