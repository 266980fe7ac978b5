import { parentPort, workerData } from 'node:worker_threads';
import { encodeGatewayLease } from '@llm-stream/contract';
import { connectNats } from '@llm-stream/pipeline';
import type { LeaseWorkerData, LeaseWorkerMessage, MainThreadBeat } from './lease-worker-protocol.js';

/**
 * The gateway's liveness lease, renewed from a worker thread with its own NATS connection: a main event loop
 * that is busy for seconds (thousands of streams opening at once) cannot make the lease late, so normalizers
 * never take a busy gateway for a dead one. It renews only while the main thread beats: a main thread stalled
 * for longer than `mainStallMs` (a livelock, an endless loop) lets the lease lapse, and a killed or stopped
 * process (SIGKILL, SIGSTOP) stops the worker with it. Each renewal the server confirms (the flush after it
 * answered) is reported to the main thread, which learns from the gaps when its lease may have lapsed
 * (lease-gaps.ts).
 */
const settings = workerData as LeaseWorkerData;
let lastBeatAt = Date.now();
let openStreams = 0;

parentPort?.on('message', (beat: MainThreadBeat) => {
  lastBeatAt = Date.now();
  openStreams = beat.openStreams;
});

const nc = await connectNats({ ...settings.auth, servers: settings.servers, name: `${settings.name}-lease`, reconnectTimeWait: 500 });

function renew(): void {
  if (nc.isClosed() || Date.now() - lastBeatAt > settings.mainStallMs) return;
  nc.publish(settings.subject, encodeGatewayLease({ open_streams: openStreams }));
  nc.flush().then(
    () => {
      const heard: LeaseWorkerMessage = { kind: 'heard', at: Date.now() };
      parentPort?.postMessage(heard);
    },
    () => undefined, // not confirmed: the gap it leaves is the point
  );
}

renew();
const timer = setInterval(renew, settings.intervalMs);
parentPort?.once('close', () => {
  clearInterval(timer);
  void nc.close();
});
const ready: LeaseWorkerMessage = 'ready';
parentPort?.postMessage(ready);
