import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
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

/**
 * Makes `scratch` an ES module project that sees the workspace's packages as an installed project would:
 * @llm-stream/client resolves to its built dist.
 */
function asInstalledProject(scratch: string): void {
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'readme-example', private: true, type: 'module' }));
  const link = join(scratch, 'node_modules');
  if (!existsSync(link)) symlinkSync(join(repoRoot(), 'node_modules'), link, 'dir');
}

describe('libs/client/README.md\'s examples as written, compiled outside the workspace (the tool runner run against a real nats-server)', () => {
  const suite = scratchSuite('llm-stream-readme-');

  it('runs the demo\'s get_weather call of the completed demo stream once, reports the cut one, and stops on SIGTERM', async () => {
    const { server, nc, jsm, scratch } = suite();
    const blocks = typeScriptBlocks(readFileSync(README, 'utf8'), SECTION);
    expect(blocks).toHaveLength(2);
    const [runner, main] = blocks as [string, string];
    expect(main).toContain("from './tool-runner.js'");
    writeFileSync(join(scratch, 'tool-runner.ts'), runner);
    writeFileSync(join(scratch, 'main.ts'), main);
    writeFileSync(
      join(scratch, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { module: 'nodenext', target: 'es2022', strict: true, types: ['node'], outDir: 'out' }, files: ['main.ts', 'tool-runner.ts'] }),
    );
    asInstalledProject(scratch);
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

  it('compiles the HTTP client example of the README as written, against the built entry point', async () => {
    const { scratch } = suite();
    const [example] = typeScriptBlocks(readFileSync(README, 'utf8'), '## Over HTTP (`@llm-stream/client/http`)');
    expect(example).toContain("from '@llm-stream/client/http'");
    writeFileSync(join(scratch, 'http-example.ts'), example!);
    asInstalledProject(scratch);
    writeFileSync(
      join(scratch, 'tsconfig.http.json'),
      JSON.stringify({ compilerOptions: { module: 'nodenext', target: 'es2022', strict: true, types: ['node'], noEmit: true }, files: ['http-example.ts'] }),
    );
    await runCommandOrThrow(NODE, [join(repoRoot(), 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(scratch, 'tsconfig.http.json')], {
      cwd: scratch,
      timeoutMs: 120_000,
    });
  });
});
