import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loggedRequests, registerScenario } from './support/control.js';
import { exchange } from './support/http-exchange.js';
import { runToExit, startReplay } from './support/replay-process.js';

describe('configuration errors exit 1 with one line naming the variable', () => {
  it.each([
    ['REPLAY_PORT', 'abc'],
    ['REPLAY_PORT', '70000'],
    ['REPLAY_PORT', '-1'],
    ['REPLAY_HOST', ''],
    ['REPLAY_TRANSCRIPTS_DIR', '/nonexistent/transcripts'],
    ['REPLAY_REQUIRE_API_KEY', ''],
    ['REPLAY_REQUEST_LOG_LIMIT', '0'],
    ['REPLAY_SERVED_LOG', ''],
  ])('%s=%j', async (variable, value) => {
    const result = await runToExit({ [variable]: value });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as { variable: string; msg: string };
    expect(line.variable).toBe(variable);
    expect(line.msg).toContain(variable);
  });

  it('a port already in use exits 1 with one line', async () => {
    const first = await startReplay();
    try {
      const result = await runToExit({ REPLAY_PORT: new URL(first.url).port, REPLAY_HOST: '127.0.0.1' });
      expect(result.code).toBe(1);
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(result.stderr).toContain(new URL(first.url).port);
    } finally {
      await first.stop();
    }
  });
});

describe('process lifecycle', () => {
  it('prints one JSON listening line, and SIGTERM closes even a hanging stream with exit 0', async () => {
    const server = await startReplay();
    expect(server.stdoutLines.map((line) => JSON.parse(line) as unknown)).toEqual([{ msg: 'listening', url: server.url }]);
    const id = await registerScenario(server.url, { responses: [{ transcript: 'simple_text', end: 'hang' }] });
    let firstBytes: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (firstBytes = resolve));
    const hanging = exchange(server.url, '/v1/chat/completions', { model: id }, {
      onChunk: () => {
        firstBytes();
      },
    });
    await started;
    expect(await server.stop()).toBe(0);
    const result = await hanging;
    expect(result.complete).toBe(false);
  });
});

describe('settings', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'replay-transcripts-'));
    mkdirSync(join(dir, 'openai-chat'));
    writeFileSync(join(dir, 'openai-chat', 'only-here.sse'), 'data: {"custom":true}\n\ndata: [DONE]\n\n');
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('REPLAY_TRANSCRIPTS_DIR serves another corpus; a case missing for the endpoint is a 404', async () => {
    const server = await startReplay({ REPLAY_TRANSCRIPTS_DIR: dir });
    try {
      const served = await exchange(server.url, '/v1/chat/completions', { model: 'only-here' });
      expect(served.body.toString()).toBe('data: {"custom":true}\n\ndata: [DONE]\n\n');
      const id = await registerScenario(server.url, { responses: [{ transcript: 'only-here' }] });
      const elsewhere = await exchange(server.url, '/v1/messages', { model: id });
      expect(elsewhere.status).toBe(404);
      expect(JSON.parse(elsewhere.body.toString())).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
    } finally {
      await server.stop();
    }
  });

  it('REPLAY_REQUEST_LOG_LIMIT keeps only the newest requests', async () => {
    const server = await startReplay({ REPLAY_REQUEST_LOG_LIMIT: '2' });
    try {
      for (const model of ['simple_text', 'refusal', 'reasoning']) await exchange(server.url, '/v1/messages', { model });
      expect((await loggedRequests(server.url)).map((entry) => entry.model)).toEqual(['refusal', 'reasoning']);
    } finally {
      await server.stop();
    }
  });
});
