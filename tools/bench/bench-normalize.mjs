// bench:normalize — the cost of our whole in-process pipeline (SSE decode, adapter, state machine) against
// a baseline of SSE parsing plus JSON.parse of each payload alone, on the same bytes in the same run.
// Prints frames/s, MB/s, events/s and CPU ns per frame for both, and the ratios (CPU time, the steadier one on
// a busy machine, and wall time); the target is full <= 1.5 x baseline.
// Usage: npm run bench:normalize [-- --mb 64 --rounds 5 --chunk 4096]
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createParser } from 'eventsource-parser';
import { normalizeTranscript } from '@llm-stream/adapters';
import { syntheticFrames } from '../../apps/replay-provider/dist/synthetic/synthetic-frames.js';

const { values } = parseArgs({
  options: { mb: { type: 'string', default: '48' }, rounds: { type: 'string', default: '5' }, chunk: { type: 'string', default: '4096' } },
});
const targetBytes = Number(values.mb) * 1024 * 1024;
const rounds = Number(values.rounds);
const chunkSize = Number(values.chunk);

// The corpus: every completed transcript of the conformance kit (all four providers, for variety) and, for
// each provider, a long generated answer of 200 text deltas as the replay provider streams it (the shape of
// most real traffic), repeated until it weighs `--mb`; each body is cut into `--chunk`-byte transport chunks,
// so chunks split records and characters.
const root = join(import.meta.dirname, '../../conformance/transcripts');
const bodies = [];
const cut = (bytes) => {
  const chunks = [];
  for (let offset = 0; offset < bytes.length; offset += chunkSize) chunks.push(bytes.subarray(offset, offset + chunkSize));
  return chunks;
};
for (const provider of ['openai-chat', 'openai-responses', 'anthropic', 'gemini']) {
  const spec = { frames: 200, frameIntervalMs: 0, textBytes: 24 };
  const bytes = Buffer.concat([...syntheticFrames(provider, spec, { stream_options: { include_usage: true } })].map((frame) => frame.render()));
  for (let copy = 0; copy < 8; copy += 1) bodies.push({ provider, bytes: bytes.length, chunks: cut(bytes) });
}
for (const provider of readdirSync(root).filter((name) => !name.includes('.'))) {
  for (const file of readdirSync(join(root, provider)).filter((name) => name.endsWith('.sse'))) {
    const expect = JSON.parse(readFileSync(join(root, provider, file.replace(/\.sse$/, '.expect.json')), 'utf8'));
    if (expect.terminal !== 'completed') continue;
    const bytes = readFileSync(join(root, provider, file));
    bodies.push({ provider, bytes: bytes.length, chunks: cut(bytes) });
  }
}
const corpus = [];
let corpusBytes = 0;
while (corpusBytes < targetBytes) {
  for (const body of bodies) {
    corpus.push(body);
    corpusBytes += body.bytes;
  }
}

function baseline() {
  let frames = 0;
  const decoder = new TextDecoder();
  for (const body of corpus) {
    const parser = createParser({
      onEvent(event) {
        frames += 1;
        if (event.data !== '[DONE]') JSON.parse(event.data);
      },
    });
    for (const chunk of body.chunks) parser.feed(decoder.decode(chunk, { stream: true }));
    parser.feed(decoder.decode());
  }
  return { frames, events: 0 };
}

function full() {
  let frames = 0;
  let events = 0;
  for (const body of corpus) {
    const result = normalizeTranscript(body.provider, body.chunks, { clock: () => 0 });
    frames += result.records.length - 4; // minus stream.open, attempt.start, upstream.response, attempt.end
    events += result.events.length;
  }
  return { frames, events };
}

/** One round: wall seconds and CPU seconds (user + system of this process: what a busy neighbour shakes least). */
function time(run) {
  const wall = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const counts = run();
  const used = process.cpuUsage(cpu);
  return { counts, seconds: Number(process.hrtime.bigint() - wall) / 1e9, cpu: (used.user + used.system) / 1e6 };
}

const median = (values) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];

/** Rounds of both paths interleaved (a, b, a, b, ...), so both see the same machine; medians of each. */
function measureBoth() {
  const samples = { a: [], b: [] };
  for (let round = 0; round < rounds; round += 1) {
    samples.a.push(time(baseline));
    samples.b.push(time(full));
  }
  const summary = (list) => ({ ...list[0].counts, seconds: median(list.map((s) => s.seconds)), cpu: median(list.map((s) => s.cpu)) });
  return { a: summary(samples.a), b: summary(samples.b) };
}

full(); // warm up both paths before measuring
baseline();
const { a, b } = measureBoth();
const mb = corpusBytes / 1024 / 1024;
const line = (name, r) =>
  `${name.padEnd(34)} ${(r.frames / r.seconds / 1e6).toFixed(3)} M frames/s  ${(mb / r.seconds).toFixed(1)} MB/s` +
  (r.events ? `  ${(r.events / r.seconds / 1e6).toFixed(3)} M events/s` : '') +
  `  CPU ${((r.cpu * 1e9) / r.frames).toFixed(0)} ns/frame`;
console.log(`corpus: ${corpus.length} streams, ${mb.toFixed(1)} MB, ${a.frames} SSE records, ${chunkSize}-byte chunks, median of ${rounds} interleaved rounds, node ${process.version}`);
console.log(line('(a) baseline: SSE parse + JSON.parse', a));
console.log(line('(b) full pipeline', b));
console.log(`ratio (b)/(a) CPU time: ${(b.cpu / a.cpu).toFixed(2)}x, wall time: ${(b.seconds / a.seconds).toFixed(2)}x  (target <= 1.50x)`);
