import { loggedRequests, registerScenario, waitFor } from './support/control.js';
import { PROVIDER_NAMES, providerRequest, recordEnds, transcript, type Provider } from './support/endpoints.js';
import { exchange } from './support/http-exchange.js';
import { startReplay, type ReplayServer } from './support/replay-process.js';

let server: ReplayServer;
beforeAll(async () => {
  server = await startReplay();
});
afterAll(async () => {
  await server.stop();
});

/** Registers a one-response scenario and sends one request for it on `provider`'s endpoint. */
async function serve(provider: Provider, response: Record<string, unknown>, onChunk?: (received: Buffer, abort: () => void) => void) {
  const id = await registerScenario(server.url, { responses: [response] });
  const { path, body } = providerRequest(provider, `scenario:${id}`);
  return { id, result: await exchange(server.url, path, body, onChunk === undefined ? {} : { onChunk }) };
}

/** Sizes of `length` bytes cut into pieces of `size`. */
function pieces(length: number, size: number): number[] {
  const sizes: number[] = [];
  for (let offset = 0; offset < length; offset += size) sizes.push(Math.min(size, length - offset));
  return sizes;
}

function boundaries(chunks: Buffer[]): number[] {
  let offset = 0;
  return chunks.map((chunk) => (offset += chunk.length));
}

describe('chunk_bytes', () => {
  it('writes exactly N bytes per chunk, the rest last', async () => {
    const bytes = transcript('openai-chat', 'simple_text');
    const { result } = await serve('openai-chat', { transcript: 'simple_text', chunk_bytes: 7 });
    expect(result.body.equals(bytes)).toBe(true);
    expect(result.chunks.map((chunk) => chunk.length)).toEqual(pieces(bytes.length, 7));
  });

  it('cuts inside a UTF-8 character', async () => {
    const bytes = transcript('openai-chat', 'simple_text');
    const firstMultiByte = bytes.findIndex((byte) => byte >= 0xc0);
    const { result } = await serve('openai-chat', { transcript: 'simple_text', chunk_bytes: firstMultiByte + 1 });
    const [first, second] = result.chunks;
    expect(first!.at(-1)).toBeGreaterThanOrEqual(0xc0); // a lead byte ends the first chunk...
    expect(second![0]! & 0xc0).toBe(0x80); // ...and its continuation byte starts the next
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(first)).toThrow();
    expect(result.body.equals(bytes)).toBe(true);
  });

  it('cuts between CR and LF of a Gemini record', async () => {
    const bytes = transcript('gemini', 'simple_text');
    const crlf = bytes.indexOf('\r\n');
    const { result } = await serve('gemini', { transcript: 'simple_text', chunk_bytes: crlf + 1 });
    expect(result.chunks[0]!.toString('latin1').endsWith('\r')).toBe(true);
    expect(result.chunks[1]!.toString('latin1').startsWith('\n')).toBe(true);
    expect(result.body.equals(bytes)).toBe(true);
  });

  it('large chunks carry several records when nothing pauses', async () => {
    const bytes = transcript('anthropic', 'simple_text');
    const { result } = await serve('anthropic', { transcript: 'simple_text', chunk_bytes: 1024, first_byte_delay_ms: 5 });
    expect(result.chunks.map((chunk) => chunk.length)).toEqual(pieces(bytes.length, 1024));
    expect(result.body.equals(bytes)).toBe(true);
  });
});

describe('frame_delay_ms', () => {
  it('flushes each record before the pause: records arrive whole, separately and in order', async () => {
    const bytes = transcript('anthropic', 'simple_text');
    const { result } = await serve('anthropic', { transcript: 'simple_text', chunk_bytes: 1024, frame_delay_ms: 1 });
    expect(boundaries(result.chunks)).toEqual(recordEnds(bytes));
    expect(result.body.equals(bytes)).toBe(true);
  });

  it('splits records into chunk_bytes pieces between pauses', async () => {
    const bytes = transcript('openai-chat', 'simple_text');
    const { result } = await serve('openai-chat', { transcript: 'simple_text', chunk_bytes: 100, frame_delay_ms: 1 });
    const ends = recordEnds(bytes);
    const expected = ends.flatMap((end, index) => pieces(end - (ends[index - 1] ?? 0), 100));
    expect(result.chunks.map((chunk) => chunk.length)).toEqual(expected);
  });
});

describe('cut_after_bytes', () => {
  it('delivers exactly N bytes, then the connection breaks with no clean end', async () => {
    const bytes = transcript('anthropic', 'simple_text');
    const { id, result } = await serve('anthropic', { transcript: 'simple_text', cut_after_bytes: 100 });
    expect(result.status).toBe(200);
    expect(result.body.equals(bytes.subarray(0, 100))).toBe(true);
    expect(result.complete).toBe(false);
    expect(result.error).not.toBeNull();
    const [logged] = await waitFor(() => loggedRequests(server.url, { scenario: id }), (list) => list[0]?.finished_at !== null, 'the cut');
    expect(logged).toMatchObject({ status: 200, client_aborted: false, served: 'transcript:anthropic/simple_text' });
  });

  it('counts bytes across chunk_bytes pieces', async () => {
    const bytes = transcript('openai-responses', 'simple_text');
    const { result } = await serve('openai-responses', { transcript: 'simple_text', chunk_bytes: 7, cut_after_bytes: 50 });
    expect(result.chunks.map((chunk) => chunk.length)).toEqual([7, 7, 7, 7, 7, 7, 7, 1]);
    expect(result.body.equals(bytes.subarray(0, 50))).toBe(true);
    expect(result.complete).toBe(false);
  });

  it('a budget beyond the body delivers everything but still no clean end', async () => {
    const bytes = transcript('gemini', 'simple_text');
    const { result } = await serve('gemini', { transcript: 'simple_text', cut_after_bytes: 1_000_000 });
    expect(result.body.equals(bytes)).toBe(true);
    expect(result.complete).toBe(false);
  });

  it('0 sends the headers and nothing else', async () => {
    const { result } = await serve('openai-chat', { transcript: 'simple_text', cut_after_bytes: 0 });
    expect(result.status).toBe(200);
    expect(result.body.length).toBe(0);
    expect(result.complete).toBe(false);
  });
});

describe('stall_after_frames', () => {
  const pings: Record<Provider, string> = {
    'openai-chat': ': ping\n\n',
    'openai-responses': ': ping\n\n',
    anthropic: 'event: ping\ndata: {"type": "ping"}\n\n',
    gemini: ': ping\r\n\r\n',
    'gemini-interactions': ': ping\n\n',
  };

  it.each(PROVIDER_NAMES)('%s: after N records only keep-alives, until the client leaves', async (provider) => {
    const bytes = transcript(provider, 'simple_text');
    const prefix = bytes.subarray(0, recordEnds(bytes)[1]);
    const ping = Buffer.from(pings[provider]);
    const wanted = prefix.length + 3 * ping.length;
    const { id, result } = await serve(
      provider,
      { transcript: 'simple_text', stall_after_frames: 2, stall_ping_interval_ms: 5 },
      (received, abort) => {
        if (received.length >= wanted) abort();
      },
    );
    expect(result.body.subarray(0, prefix.length).equals(prefix)).toBe(true);
    const tail = result.body.subarray(prefix.length);
    expect(tail.length).toBeGreaterThanOrEqual(3 * ping.length);
    expect(tail.equals(Buffer.from(pings[provider].repeat(tail.length / ping.length)))).toBe(true);
    const [logged] = await waitFor(() => loggedRequests(server.url, { scenario: id }), (list) => list[0]?.client_aborted === true, 'abort');
    expect(logged!.aborted_at).toBeGreaterThanOrEqual(logged!.started_at);
  });

  it('0 frames: pings from the start', async () => {
    const ping = Buffer.from(': ping\n\n');
    const { result } = await serve('openai-chat', { transcript: 'simple_text', stall_after_frames: 0, stall_ping_interval_ms: 1 }, (received, abort) => {
      if (received.length >= 2 * ping.length) abort();
    });
    expect(result.body.toString()).toBe(': ping\n\n'.repeat(result.body.length / ping.length));
  });
});

describe('end', () => {
  it('"hang" sends everything then keeps the response open until the client leaves', async () => {
    const bytes = transcript('openai-chat', 'simple_text');
    const { id, result } = await serve('openai-chat', { transcript: 'simple_text', end: 'hang' }, (received, abort) => {
      if (received.length === bytes.length) abort();
    });
    expect(result.body.equals(bytes)).toBe(true);
    expect(result.complete).toBe(false);
    await waitFor(() => loggedRequests(server.url, { scenario: id }), (list) => list[0]?.client_aborted === true, 'abort');
  });
});

describe('HTTP errors before any frame', () => {
  it('sends the status, headers and JSON body of the scenario, no SSE', async () => {
    const body = { error: { message: 'Overloaded', type: 'overloaded_error' } };
    const { result } = await serve('anthropic', { status: 529, body, headers: { 'x-should-retry': 'true' } });
    expect(result.status).toBe(529);
    expect(result.headers['content-type']).toBe('application/json');
    expect(result.headers['x-should-retry']).toBe('true');
    expect(JSON.parse(result.body.toString())).toEqual(body);
    expect(result.complete).toBe(true);
  });

  it('sends a string body as is', async () => {
    const { result } = await serve('gemini', { status: 502, body: '<html>Bad gateway</html>' });
    expect(result.status).toBe(502);
    expect(result.headers['content-type']).toMatch(/^text\/plain/);
    expect(result.body.toString()).toBe('<html>Bad gateway</html>');
  });

  it('[429, transcript]: the first request is refused with Retry-After, the next ones get the transcript', async () => {
    const bytes = transcript('openai-chat', 'simple_text');
    const id = await registerScenario(server.url, {
      responses: [{ status: 429, body: { error: { message: 'Rate limit', type: 'requests', code: 'rate_limit_exceeded' } }, retry_after: 7 }, { transcript: 'simple_text' }],
    });
    const { path, body } = providerRequest('openai-chat', id);
    const first = await exchange(server.url, path, body);
    const second = await exchange(server.url, path, body);
    const third = await exchange(server.url, path, body);
    expect(first.status).toBe(429);
    expect(first.headers['retry-after']).toBe('7');
    expect(JSON.parse(first.body.toString())).toMatchObject({ error: { code: 'rate_limit_exceeded' } });
    expect(second.status).toBe(200);
    expect(second.body.equals(bytes)).toBe(true);
    expect(third.body.equals(bytes)).toBe(true);
  });
});

describe('scenario selection', () => {
  it('a {provider, case} transcript is served on any endpoint (wrong-protocol tests)', async () => {
    const { result } = await serve('openai-chat', { transcript: { provider: 'anthropic', case: 'refusal' } });
    expect(result.body.equals(transcript('anthropic', 'refusal'))).toBe(true);
  });

  it('selects by "scenario:<id>", bare "sc_" id, and a caller-chosen id; Gemini takes it from the path', async () => {
    await registerScenario(server.url, { id: 'sc_fixed-id', responses: [{ transcript: 'multi_block' }] });
    const gemini = await exchange(server.url, '/v1beta/models/scenario:sc_fixed-id:streamGenerateContent?alt=sse', {});
    const bare = await exchange(server.url, '/v1/messages', { model: 'sc_fixed-id' });
    expect(gemini.body.equals(transcript('gemini', 'multi_block'))).toBe(true);
    expect(bare.body.equals(transcript('anthropic', 'multi_block'))).toBe(true);
  });

  it('an unknown scenario is a 404 in the provider shape', async () => {
    const result = await exchange(server.url, '/v1/responses', { model: 'scenario:sc_never_registered' });
    expect(result.status).toBe(404);
    expect(JSON.parse(result.body.toString())).toMatchObject({ error: { code: 'model_not_found' } });
  });
});
