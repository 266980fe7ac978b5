import { parentPort, workerData } from 'node:worker_threads';
import { connectNats } from '../auth/nats-connection-auth.js';
import { HELD_ANSWER, type ProgressThreadReady, type ToProgressThread, type WorkProgressThreadData } from './work-progress-protocol.js';

/**
 * The progress of a process's JetStream work items, told from a worker thread with its own NATS connection:
 * a main event loop busy for seconds (a burst of streams, a long GC) cannot let an item's ack wait pass, so
 * JetStream never redelivers a live owner's item to another replica. JetStream applies `+WPI` (and `+ACK`) by
 * the message's stream sequence, so the reply subject of any delivery of an item keeps it in progress.
 *
 * The thread also answers holder queries (`<holderQueries with the key as last token>`) for the items it
 * holds: a replica that got an item redelivered (after a NATS restart or pause) asks before it takes it over.
 * It tells progress and answers only while the main thread beats: a main thread stalled for longer than
 * `mainStallMs` lets its items lapse, and a killed or stopped process stops the thread with it.
 */
const settings = workerData as WorkProgressThreadData;
const held = new Map<string, string>();
let lastBeatAt = Date.now();

const alive = (): boolean => Date.now() - lastBeatAt <= settings.mainStallMs;

parentPort?.on('message', (message: ToProgressThread) => {
  lastBeatAt = Date.now();
  switch (message.kind) {
    case 'hold':
      held.set(message.key, message.reply);
      return;
    case 'release':
      held.delete(message.key);
      return;
    case 'beat':
      return;
  }
});

const nc = await connectNats({ ...settings.auth, servers: settings.servers, name: `${settings.name}-progress` });

const queries = nc.subscribe(settings.holderQueries, {
  callback: (error, message) => {
    if (error !== null) return;
    const key = message.subject.slice(message.subject.lastIndexOf('.') + 1);
    if (held.has(key) && alive()) message.respond(HELD_ANSWER);
  },
});

function tellProgress(): void {
  if (nc.isClosed() || !alive()) return;
  for (const reply of held.values()) nc.publish(reply, '+WPI');
}

const timer = setInterval(tellProgress, settings.intervalMs);
parentPort?.once('close', () => {
  clearInterval(timer);
  queries.unsubscribe();
  void nc.close();
});
await nc.flush();
const ready: ProgressThreadReady = { kind: 'ready' };
parentPort?.postMessage(ready);
