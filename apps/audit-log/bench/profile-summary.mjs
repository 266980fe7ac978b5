// Summarizes a V8 CPU profile (`node --cpu-prof`, or bench-audit's BENCH_CPU_PROF_DIR): the functions with
// the most self time, and self time by package (node_modules package, the app's own code, node internals).
//
//   node apps/audit-log/bench/profile-summary.mjs <file.cpuprofile> [--top 30]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '30' } } });
const TOP = Number(values.top);

/** Where a function lives, coarsely: a node_modules package, a workspace project, node internals, or V8. */
function placeOf(url) {
  if (url === '') return '(v8/native)';
  if (url.startsWith('node:')) return 'node internals';
  const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (packageMatch?.[1] !== undefined && !packageMatch[1].startsWith('@llm-stream')) return packageMatch[1];
  const projectMatch = /\/(apps|libs)\/([^/]+)\//.exec(url);
  return projectMatch === null ? url : `${projectMatch[1]}/${projectMatch[2]}`;
}

function summarize(file) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  // timeDeltas[i] is the time before samples[i]: attribute it to that sample's node.
  profile.samples.forEach((id, index) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));
  const total = [...self.values()].reduce((sum, us) => sum + us, 0);
  const byFunction = new Map();
  const byPlace = new Map();
  let idle = 0;
  for (const [id, us] of self) {
    const { callFrame } = byId.get(id);
    if (callFrame.functionName === '(idle)') idle += us;
    const key = `${callFrame.functionName || '(anonymous)'} ${callFrame.url.replace(/^.*\/(node_modules|apps|libs)\//, '$1/')}:${callFrame.lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
    const place = callFrame.functionName.startsWith('(') ? callFrame.functionName : placeOf(callFrame.url);
    byPlace.set(place, (byPlace.get(place) ?? 0) + us);
  }
  const busy = total - idle;
  const share = (us) => `${((100 * us) / busy).toFixed(1).padStart(5)} %`;
  console.log(`${file}: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy (shares below are of busy time)`);
  console.log('\nself time by place');
  for (const [place, us] of [...byPlace].filter(([place]) => place !== '(idle)').sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${share(us)}  ${place}`);
  console.log(`\ntop ${TOP} functions by self time`);
  for (const [key, us] of [...byFunction].filter(([key]) => !key.startsWith('(idle)')).sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`  ${share(us)}  ${key}`);
}

for (const file of positionals) summarize(file);
