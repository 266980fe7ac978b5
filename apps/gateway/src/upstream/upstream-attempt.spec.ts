import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { UnstampedRecord } from '@llm-stream/adapters';
import { BODY_END_GRACE_MS, UpstreamAttempt, type AttemptHooks } from './upstream-attempt.js';
import type { UpstreamPlan } from './upstream-plan.js';

const SETTINGS = { connectTimeoutMs: 5_000, idleTimeoutMs: 30_000, progressTimeoutMs: 30_000, maxFrameBytes: 1_048_576, maxErrorBodyBytes: 65_536 };
const FRAMES = [
  'event: message_start\ndata: {"type":"message_start"}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"text":"Hi"}}\n\n',
  'event: message_stop\ndata: {"type":"message_stop"}\n\n',
];

/** How the provider behaves after its last event. */
type Ending = 'ends' | 'stays_open';

/** A provider on loopback that streams FRAMES, then ends the response or keeps it open (pinging). */
class FakeProvider {
  readonly server: Server;
  /** Every TCP connection a client opened, in order; `closed` once it is gone. */
  readonly connections: { socket: Socket; closed: boolean }[] = [];
  ending: Ending = 'ends';
  private readonly open = new Set<ServerResponse>();

  constructor() {
    this.server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const frame of FRAMES) response.write(frame);
      if (this.ending === 'ends') {
        response.end();
        return;
      }
      this.open.add(response);
      setTimeout(() => {
        response.write(': ping after the end\n\n');
      }, 50);
    });
    this.server.on('connection', (socket) => {
      const connection = { socket, closed: false };
      this.connections.push(connection);
      socket.on('close', () => {
        connection.closed = true;
      });
    });
  }

  async listen(): Promise<URL> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return new URL(`http://127.0.0.1:${String((this.server.address() as AddressInfo).port)}/v1/messages`);
  }

  async close(): Promise<void> {
    for (const response of this.open) response.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => {
      this.server.close(() => {
        resolve();
      });
    });
  }
}

/** Hooks like the stream runner's: `message_stop` ends the stream; `retryable` makes every frame a retryable failure. */
function recordingHooks(retryable = false): { hooks: AttemptHooks; records: UnstampedRecord[] } {
  const records: UnstampedRecord[] = [];
  const ended = (): boolean => records.some((record) => record.kind === 'frame' && record.text.includes('message_stop'));
  return {
    records,
    hooks: {
      record: (record) => records.push(record),
      standing: () => (retryable ? 'retry_pending' : ended() ? 'ended' : 'open'),
      lastProgressTs: () => undefined,
    },
  };
}

function planFor(url: URL): UpstreamPlan {
  return { url, headers: { 'content-type': 'application/json' }, body: '{}', model: 'claude', route: 'anthropic', secret: 'sk-test' };
}

async function waitUntil(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('UpstreamAttempt after the stream ended (a real HTTP server on loopback)', () => {
  let provider: FakeProvider;
  let url: URL;

  beforeEach(async () => {
    provider = new FakeProvider();
    url = await provider.listen();
  });

  afterEach(async () => {
    await provider.close();
  });

  it('reads the body to its end and ends eof, so the next attempt reuses the connection', async () => {
    const first = recordingHooks();
    await new UpstreamAttempt(1, planFor(url), SETTINGS, first.hooks).run();
    const second = recordingHooks();
    await new UpstreamAttempt(1, planFor(url), SETTINGS, second.hooks).run();

    for (const { records } of [first, second]) {
      expect(records.map((record) => record.kind)).toEqual(['upstream.response', 'frame', 'frame', 'frame', 'attempt.end']);
      expect(records.at(-1)).toEqual({ kind: 'attempt.end', attempt: 1, reason: 'eof' });
    }
    expect(provider.connections).toHaveLength(1);
    expect(provider.connections[0]?.closed).toBe(false);
  });

  it('records what the body still brings after the end, and closes a body that goes on once the grace has passed', async () => {
    provider.ending = 'stays_open';
    const { hooks, records } = recordingHooks();
    const started = Date.now();
    await new UpstreamAttempt(1, planFor(url), SETTINGS, hooks).run();

    expect(Date.now() - started).toBeGreaterThanOrEqual(BODY_END_GRACE_MS - 50);
    expect(records.map((record) => record.kind)).toEqual(['upstream.response', 'frame', 'frame', 'frame', 'frame', 'attempt.end']);
    expect(records[4]).toMatchObject({ kind: 'frame', attempt: 1, text: expect.stringMatching(/^: ping after the end/) as unknown });
    expect(records.at(-1)).toEqual({ kind: 'attempt.end', attempt: 1, reason: 'aborted', detail: 'the stream settled before the upstream closed' });
    await waitUntil(() => provider.connections[0]?.closed === true);
  });

  it('closes the connection at once on a retryable failure (the next attempt starts), without reading the body on', async () => {
    provider.ending = 'stays_open';
    const { hooks, records } = recordingHooks(true);
    await new UpstreamAttempt(1, planFor(url), SETTINGS, hooks).run();

    // The client closed a response the provider never ended.
    expect(records.at(-1)).toEqual({ kind: 'attempt.end', attempt: 1, reason: 'aborted', detail: 'the stream settled before the upstream closed' });
    await waitUntil(() => provider.connections[0]?.closed === true);
  });
});
