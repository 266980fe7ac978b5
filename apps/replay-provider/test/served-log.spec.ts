import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registerScenario, waitFor } from './support/control.js';
import { providerRequest, transcript } from './support/endpoints.js';
import { exchange } from './support/http-exchange.js';
import { startReplay, type ReplayServer } from './support/replay-process.js';

interface Line {
  readonly request_id: string;
  readonly scenario: string | null;
  readonly served: string | null;
  readonly status: number | null;
  readonly outcome: string;
  readonly cut_at: number | null;
  readonly bytes_written: number;
  readonly body_base64: string;
}

let dir: string;
let logPath: string;
let server: ReplayServer;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'replay-served-log-'));
  logPath = join(dir, 'served.ndjson');
  server = await startReplay({ REPLAY_SERVED_LOG: logPath });
});
afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

function lines(): Line[] {
  if (!existsSync(logPath)) return [];
  // Only complete lines: the server may be in the middle of appending the last one (CI saw a cut one once).
  const complete = readFileSync(logPath, 'utf8').split('\n').slice(0, -1);
  return complete.filter((line) => line !== '').map((line) => JSON.parse(line) as Line);
}

/** The served-log line of a scenario, once the server wrote it (it appends when the response has ended). */
function lineOf(scenario: string): Promise<Line> {
  return waitFor(
    () => Promise.resolve(lines().filter((line) => line.scenario === scenario)),
    (found) => found.length === 1,
    `the served-log line of ${scenario}`,
  ).then((found) => found[0]!);
}

async function serve(provider: 'anthropic' | 'gemini', response: Record<string, unknown>): Promise<{ id: string; body: Buffer }> {
  const id = await registerScenario(server.url, { responses: [response] });
  const { path, body } = providerRequest(provider, `scenario:${id}`);
  return { id, body: (await exchange(server.url, path, body)).body };
}

describe('REPLAY_SERVED_LOG', () => {
  it('logs a clean transcript body byte-exact, with no cut', async () => {
    const { id, body } = await serve('gemini', { transcript: 'multi_block', chunk_bytes: 5 });
    const line = await lineOf(id);
    expect(line.served).toBe('transcript:gemini/multi_block');
    expect(line.status).toBe(200);
    expect(line.outcome).toBe('ended');
    expect(line.cut_at).toBeNull();
    expect(Buffer.from(line.body_base64, 'base64').equals(transcript('gemini', 'multi_block'))).toBe(true);
    expect(line.bytes_written).toBe(body.length);
  });

  it('logs a cut body up to the cut offset, which splits a record', async () => {
    const { id, body } = await serve('anthropic', { transcript: 'simple_text', cut_after_bytes: 333 });
    const line = await lineOf(id);
    expect(line.outcome).toBe('cut');
    expect(line.cut_at).toBe(333);
    const logged = Buffer.from(line.body_base64, 'base64');
    expect(logged.equals(transcript('anthropic', 'simple_text').subarray(0, 333))).toBe(true);
    expect(logged.equals(body)).toBe(true);
  });

  it('logs what a synthetic stream wrote, timestamps included', async () => {
    const { id, body } = await serve('anthropic', { synthetic: { frames: 3, frame_interval_ms: 1 } });
    const line = await lineOf(id);
    expect(line.served).toBe('synthetic:anthropic');
    expect(Buffer.from(line.body_base64, 'base64').equals(body)).toBe(true);
  });

  it('logs an error response with its status and body', async () => {
    const { id, body } = await serve('anthropic', { status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } });
    const line = await lineOf(id);
    expect(line.outcome).toBe('error');
    expect(line.status).toBe(529);
    expect(Buffer.from(line.body_base64, 'base64').toString()).toBe(body.toString());
  });

  it('writes nothing when unset', async () => {
    const quiet = await startReplay();
    try {
      const { path, body } = providerRequest('anthropic', 'simple_text');
      expect((await exchange(quiet.url, path, body)).status).toBe(200);
      expect(lines().some((line) => line.served === 'transcript:anthropic/simple_text' && line.scenario === null)).toBe(false);
    } finally {
      await quiet.stop();
    }
  });
});
