// Throughput of the contract tools on a realistic stream, for comparison with the gateway's per-event budget.
// Run after building the library:  npx tsc -b libs/contract/tsconfig.lib.json && node libs/contract/scripts/bench-contract-tools.mjs
// Prints figures only; nothing here is asserted (tests never assert on time).
import { performance } from 'node:perf_hooks';
import { StreamMachine, assemble, checkInvariants, validateEvent } from '../dist/index.js';

/** A stream of `deltas` text deltas, a tool call in 20 fragments, and stream.done. */
function makeStream(deltas) {
  const machine = new StreamMachine({ stream_id: 'st_bench', provider: 'anthropic', model: 'claude-bench', tenant: 'acme' });
  const events = machine.start(0);
  let ts = 1;
  events.push(...machine.apply({ type: 'block.open', key: 'text', kind: 'text' }, ts++));
  for (let i = 0; i < deltas; i += 1) {
    events.push(...machine.apply({ type: 'block.append', key: 'text', delta: { kind: 'text', text: `token ${i} ` } }, ts++));
  }
  events.push(...machine.apply({ type: 'block.close', key: 'text' }, ts++));
  events.push(...machine.apply({ type: 'block.open', key: 'tool', kind: 'tool_call', name: 'search', call_id: 'call_1' }, ts++));
  const json = JSON.stringify({ query: 'weather in Almaty', days: 3, units: 'metric', extra: 'x'.repeat(200) });
  for (let i = 0; i < 20; i += 1) {
    const part = json.slice((i * json.length) / 20, ((i + 1) * json.length) / 20);
    events.push(...machine.apply({ type: 'block.append', key: 'tool', delta: { kind: 'json_text', text: part } }, ts++));
  }
  events.push(...machine.apply({ type: 'block.close', key: 'tool' }, ts++));
  events.push(
    ...machine.apply(
      { type: 'finish', stop_reason: 'tool_use', provider_stop_reason: 'tool_use', usage: { input_tokens: 10, output_tokens: 600 } },
      ts++,
    ),
  );
  return events;
}

function measure(name, events, run, rounds) {
  run(); // warm-up (and, for validateEvent, the one-time schema compilation)
  const start = performance.now();
  for (let i = 0; i < rounds; i += 1) run();
  const ms = performance.now() - start;
  const perEvent = (ms * 1e6) / (rounds * events.length);
  console.log(`${name.padEnd(34)} ${(perEvent / 1000).toFixed(3).padStart(8)} µs/event  ${((rounds * events.length) / (ms / 1000) / 1e6).toFixed(2).padStart(6)} M events/s`);
}

const compileStart = performance.now();
validateEvent({ type: 'stream.heartbeat', stream_id: 's', seq: 1, ts: 0 });
console.log(`schema compilation (first validateEvent): ${(performance.now() - compileStart).toFixed(1)} ms`);

const events = makeStream(500);
console.log(`stream: ${events.length} events`);
measure('StreamMachine (produce the stream)', events, () => makeStream(500), 200);
measure('validateEvent (each event)', events, () => events.forEach((event) => validateEvent(event)), 200);
measure('checkInvariants (whole list)', events, () => checkInvariants(events), 200);
measure('assemble (whole list)', events, () => assemble(events), 200);
