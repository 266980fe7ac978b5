// bench:nats-floor — what nats-server itself costs per message on the pipeline's path, apart from our services.
// bench:e2e sums the CPU of the gateway, the normalizer and nats-server per contract event; this says how much
// of its nats-server share is the server's floor for the design (every frame and every event is one message,
// core-published into a file-backed JetStream stream with a Nats-Msg-Id, delivered live to one subscriber),
// and what carrying several frames per message would change. Every figure is nats-server CPU time per frame
// (from /proc: the figure a noisy machine shakes least) and its ratio to plain core delivery measured in the
// same run; the client line is this process's own CPU per frame (nats.js publishing and receiving).
// Before them, the latency floor: what a hop between two processes and a pass through nats-server cost at a
// frame every 20 ms, so the least latency the design's path can add on this machine.
// Usage: npm run bench:nats-floor [-- --rate 10000 --seconds 5 --subjects 200 --batch 10]
import { parseArgs } from 'node:util';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { EncodedHeaders, ensurePipelineStreams, DEFAULT_STREAM_OPTIONS } from '@llm-stream/pipeline';
import { startNatsServer, waitFor } from '@llm-stream/testing';
import { benchStream, benchStreamId, withoutMsgId } from './pipeline-messages.mjs';
import { natsHopsLatency, tcpHopLatency } from './hop-latency.mjs';
import { cpuSeconds } from './proc-cpu.mjs';

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '10000' },
    seconds: { type: 'string', default: '5' },
    subjects: { type: 'string', default: '200' },
    batch: { type: 'string', default: '10' },
  },
});
const RATE = Number(values.rate);
const SECONDS = Number(values.seconds);
const SUBJECTS = Number(values.subjects);
const BATCH = Number(values.batch);

// Raw trace frames as the gateway publishes them, one stream per subject. Positions go on across the
// scenarios, so no Nats-Msg-Id repeats (a repeated one is dropped as a duplicate, never stored).
const streams = Array.from({ length: SUBJECTS }, (_, index) => benchStream('bench', benchStreamId('FLOOR', index)));
const seqs = new Array(SUBJECTS).fill(0);

const ownCpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};
const out = (line) => process.stdout.write(`${line}\n`);

const nats = await startNatsServer();
const publisher = await connect({ servers: nats.url, name: 'bench-floor-publisher' });
const subscriber = await connect({ servers: nats.url, name: 'bench-floor-subscriber' });
await ensurePipelineStreams(await jetstreamManager(publisher), DEFAULT_STREAM_OPTIONS);

/**
 * Publishes RATE frames/s for SECONDS across SUBJECTS subjects (`framesPerMessage` frames in each message),
 * paced by the event loop's 1 ms timer as a busy service's publishes are; returns CPU per frame once the
 * subscriber has every message.
 */
async function scenario({ stored, withMsgId, framesPerMessage }) {
  const total = RATE * SECONDS;
  const messages = Math.ceil(total / framesPerMessage);
  // Unstored: the same subjects under a root no stream captures.
  const subjectOf = (stream) => (stored ? stream.rawSubject : `bench.${stream.rawSubject}`);
  let received = 0;
  const subscription = subscriber.subscribe(stored ? 'llm.raw.>' : 'bench.>', {
    callback: () => {
      received += 1;
    },
  });
  await subscriber.flush();
  const serverBefore = cpuSeconds(nats.pid);
  const clientBefore = ownCpuSeconds();
  const started = performance.now();
  let sent = 0;
  let message = 0;
  while (sent < total) {
    const due = Math.min(total, Math.floor(((performance.now() - started) * RATE) / 1000));
    while (sent < due) {
      const index = message % SUBJECTS;
      const stream = streams[index];
      seqs[index] += 1;
      const frames = Math.min(framesPerMessage, total - sent);
      const frame = stream.frame(seqs[index]);
      const body = frames === 1 ? frame.data : Array.from({ length: frames }, () => frame.data).join('\n\n');
      const headers = new EncodedHeaders(withMsgId ? frame.headerBlock : withoutMsgId(frame.headerBlock));
      publisher.publish(subjectOf(stream), body, { headers });
      sent += frames;
      message += 1;
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await publisher.flush();
  await waitFor(() => received >= messages || undefined, { timeoutMs: 60_000, intervalMs: 10, description: `${messages} messages delivered` });
  const serverUs = ((cpuSeconds(nats.pid) - serverBefore) * 1e6) / total;
  const clientUs = ((ownCpuSeconds() - clientBefore) * 1e6) / total;
  subscription.unsubscribe();
  return { serverUs, clientUs };
}

try {
  // First, on a machine still idle: a paced stream lets each receiver go idle between messages, as in bench:e2e.
  const pace = { count: 500, intervalMs: 20 };
  const tcpHop = await tcpHopLatency(pace);
  const natsPass = await natsHopsLatency(publisher, subscriber, pace);
  out(`latency floor, a message every ${pace.intervalMs} ms (${pace.count} each), p50:`);
  out(`  one TCP hop between two node processes (what a plain proxy adds)    ${tcpHop.toFixed(3)} ms`);
  out(`  one pass through nats-server (publish -> server -> subscriber)      ${natsPass.toFixed(3)} ms`);
  // Direct: provider -> client. The pipeline: provider -> gateway -> nats-server -> normalizer -> nats-server ->
  // gateway -> client, two passes through nats-server and one TCP hop more.
  out(`  the pipeline adds two passes and a hop to a direct call: at least ${(2 * natsPass + tcpHop).toFixed(2)} ms at p50 here, before the services do any work`);

  out(`nats-server floor: ${RATE} frames/s for ${SECONDS} s over ${SUBJECTS} subjects, one subscriber, frames shaped like the raw trace's`);
  // The first run warms the JIT and the server; it is not reported.
  await scenario({ stored: false, withMsgId: false, framesPerMessage: 1 });
  const core = await scenario({ stored: false, withMsgId: false, framesPerMessage: 1 });
  const rows = [
    ['core delivery, nothing stored (baseline)', core],
    ['stored in LLM_RAW (file), no Nats-Msg-Id', await scenario({ stored: true, withMsgId: false, framesPerMessage: 1 })],
    ['stored in LLM_RAW with Nats-Msg-Id (the pipeline today)', await scenario({ stored: true, withMsgId: true, framesPerMessage: 1 })],
    [`stored with Nats-Msg-Id, ${BATCH} frames per message`, await scenario({ stored: true, withMsgId: true, framesPerMessage: BATCH })],
  ];
  for (const [name, { serverUs, clientUs }] of rows) {
    out(`  ${name.padEnd(58)} nats-server ${serverUs.toFixed(1).padStart(5)} us per frame (${(serverUs / core.serverUs).toFixed(2)}x)   client ${clientUs.toFixed(1).padStart(5)} us`);
  }
  const perMessage = rows[2][1].serverUs;
  out(`  the pipeline stores two messages per contract event (its raw frame, the event): nats-server alone needs about ${(2 * perMessage).toFixed(1)} us per event at this rate`);

} finally {
  await publisher.close();
  await subscriber.close();
  await nats.stop();
}
