// The NATS side of the quick start: is a server there, does it have JetStream, and which of the pipeline's
// streams and consumers were there before (so `npm run quickstart:reset` removes only what the quick start made).
import { connect as connectTcp } from 'node:net';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';

export function natsAnswers(host, port) {
  return new Promise((resolve) => {
    const socket = connectTcp({ host, port }, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
    socket.setTimeout(1_000, () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** The pipeline streams present and each one's consumers; null when JetStream is not enabled. */
export async function pipelineInventory(natsUrl, streamNames) {
  const nc = await connect({ servers: natsUrl, timeout: 3_000 });
  try {
    // jetstreamManager() asks for the account's JetStream info first and fails when JetStream is off.
    const jsm = await jetstreamManager(nc, { timeout: 3_000 }).catch(() => null);
    if (jsm === null) return null;
    const inventory = {};
    for (const stream of streamNames) {
      try {
        await jsm.streams.info(stream);
      } catch {
        continue;
      }
      inventory[stream] = (await jsm.consumers.list(stream).next()).map((consumer) => consumer.name);
    }
    return inventory;
  } finally {
    await nc.close();
  }
}

/** What is in `after` but not in `before`: whole streams, and consumers added to streams that already existed. */
export function createdSince(before, after) {
  const streams = Object.keys(after).filter((stream) => !(stream in before));
  const consumers = [];
  for (const [stream, names] of Object.entries(after)) {
    if (!(stream in before)) continue;
    for (const name of names) if (!before[stream].includes(name)) consumers.push({ stream, name });
  }
  return { streams, consumers };
}

/** Deletes what `created` lists; what is already gone is skipped. Returns what was removed. */
export async function removeCreated(natsUrl, created) {
  const nc = await connect({ servers: natsUrl, timeout: 3_000 });
  const removed = [];
  try {
    const jsm = await jetstreamManager(nc, { timeout: 3_000 });
    for (const { stream, name } of created.consumers) {
      if (await jsm.consumers.delete(stream, name).catch(() => false)) removed.push(`consumer ${stream}/${name}`);
    }
    for (const stream of created.streams) {
      if (await jsm.streams.delete(stream).catch(() => false)) removed.push(`stream ${stream}`);
    }
    return removed;
  } finally {
    await nc.close();
  }
}
