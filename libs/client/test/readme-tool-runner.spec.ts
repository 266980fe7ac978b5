import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, runCommandOrThrow, startProcess } from '@llm-stream/testing';
import { publishStored } from './nats-events.js';
import { scratchSuite } from './scratch-suite.js';
import { WEATHER_CALL, toolCallStream } from './stream-fixtures.js';

const NODE = join(repoRoot(), 'node_modules', '.bin', 'node');
const README = join(__dirname, '..', 'README.md');
const SECTION = '## A backend that runs tool calls';

/** The ```ts blocks of one `## ` section of a Markdown text, in order, exactly as written. */
function typeScriptBlocks(markdown: string, heading: string): string[] {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`no section "${heading}"`);
  const next = markdown.indexOf('\n## ', start + heading.length + 2);
  const section = markdown.slice(start, next < 0 ? undefined : next);
  return [...section.matchAll(/\n```ts\n([\s\S]*?)\n```\n/g)].map((match) => `${match[1]!}\n`);
}

describe('libs/client/README.md\'s tool runner, run as written (real nats-server, compiled outside the workspace)', () => {
  const suite = scratchSuite('llm-stream-readme-');

  it('runs the demo\'s get_weather call of the completed demo stream once, reports the cut one, and stops on SIGTERM', async () => {
    const { server, nc, jsm, scratch } = suite();
    const blocks = typeScriptBlocks(readFileSync(README, 'utf8'), SECTION);
    expect(blocks).toHaveLength(2);
    const [runner, main] = blocks as [string, string];
    expect(main).toContain("from './tool-runner.js'");
    writeFileSync(join(scratch, 'tool-runner.ts'), runner);
    writeFileSync(join(scratch, 'main.ts'), main);
    writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'readme-example', private: true, type: 'module' }));
    writeFileSync(
      join(scratch, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { module: 'nodenext', target: 'es2022', strict: true, types: ['node'], outDir: 'out' }, files: ['main.ts', 'tool-runner.ts'] }),
    );
    // The workspace's packages as an installed project sees them: @llm-stream/client resolves to its built dist.
    symlinkSync(join(repoRoot(), 'node_modules'), join(scratch, 'node_modules'), 'dir');
    await runCommandOrThrow(NODE, [join(repoRoot(), 'node_modules', 'typescript', 'bin', 'tsc'), '-p', scratch], { cwd: scratch, timeoutMs: 120_000 });

    await publishStored(nc, jsm, 'demo', toolCallStream('st_readme_done', 'demo', 'completed', WEATHER_CALL));
    await publishStored(nc, jsm, 'demo', toolCallStream('st_readme_cut', 'demo', 'interrupted', WEATHER_CALL));
    // The test's nats-server has no authorization: it lets `backend-demo` in without checking the password.
    const backend = startProcess(NODE, [join(scratch, 'out', 'main.js')], {
      name: 'readme-tool-runner',
      cwd: scratch,
      env: { NATS_URL: server.url, NATS_PASSWORD: 'not-checked' },
    });
    try {
      await backend.waitForLine(/"message":"tool call not run"/, 20_000);
      expect(await backend.stop('SIGTERM', 10_000)).toEqual({ code: 0, signal: null });
      const logged = backend.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(logged).toEqual([
        {
          message: 'tool call ran',
          stream_id: 'st_readme_done',
          name: 'get_weather',
          call_id: WEATHER_CALL.callId,
          result: { city: 'Kraków', unit: 'celsius', forecast: 'sunny', temperature: 21, idempotency_key: WEATHER_CALL.callId },
        },
        { message: 'tool call not run', stream_id: 'st_readme_cut', name: 'get_weather', reason: 'stream_interrupted', status: 'interrupted' },
      ]);
    } finally {
      if (backend.exit === undefined) await backend.kill();
    }
  });
});
