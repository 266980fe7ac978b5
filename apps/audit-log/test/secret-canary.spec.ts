import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MsgHdrs, Subscription } from '@nats-io/nats-core';
import { collectSse, transcriptsDir, waitFor } from '@llm-stream/testing';
import { getJson } from './support/http.js';
import { startPipeline, type Pipeline } from './support/pipeline.js';
import { startAudit, type Service } from './support/services.js';
import { ACME, GLOBEX } from './support/tenants.js';

/** The provider key of every route: a value no test writes anywhere else, so finding it anywhere is a leak. */
const CANARY = 'sk-canary/5d1e9b7c3a8f4e2d';
const ESCAPED_CASE = 'canary_escaped_key';

/** `\uXXXX` for the characters at the positions `pick` chooses, hex in the given case. */
function unicodeEscaped(text: string, pick: (index: number) => boolean, upper: boolean): string {
  return Array.from(text)
    .map((character, index) => {
      const hex = character.charCodeAt(0).toString(16).padStart(4, '0');
      return pick(index) ? `\\u${upper ? hex.toUpperCase() : hex}` : character;
    })
    .join('');
}

/** An Anthropic answer whose text deltas repeat the key JSON-escaped, each delta in another form. */
function escapedKeyTranscript(): string {
  const record = (event: string, data: string): string => `event: ${event}\ndata: ${data}\n\n`;
  const delta = (text: string): string => record('content_block_delta', `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"${text}"}}`);
  return [
    record('message_start', '{"type":"message_start","message":{"id":"msg_canary","type":"message","role":"assistant","model":"claude","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}}'),
    record('content_block_start', '{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}'),
    delta(`a: ${unicodeEscaped(CANARY, () => true, false)}.`),
    delta(` b: ${unicodeEscaped(CANARY, (index) => index % 3 === 0, true)}.`),
    delta(` c: ${CANARY.replace('/', '\\/')}.`),
    record('content_block_stop', '{"type":"content_block_stop","index":0}'),
    record('message_delta', '{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":9}}'),
    record('message_stop', '{"type":"message_stop"}'),
  ].join('');
}

/** Every header name and value of a message, one per line. */
function headerText(headers: MsgHdrs | undefined): string {
  if (headers === undefined) return '';
  return [...headers.keys()].flatMap((name) => headers.values(name).map((value) => `${name}: ${value}`)).join('\n');
}

/** Whether a text holds the key in any form the redaction covers: decoded first, then compared. */
function holdsCanary(text: string): boolean {
  const decoded = text
    .replace(/\\+u([0-9a-fA-F]{4})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/\\+\//g, '/')
    .replace(/%([0-9a-fA-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return decoded.includes(CANARY) || text.includes(Buffer.from(CANARY).toString('base64').slice(0, 20));
}

describe('the provider key never leaves the gateway (canary through the real pipeline)', () => {
  let pipeline: Pipeline;
  let audit: Service;
  let tap: Subscription;
  const tapped: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'canary-transcripts-'));
  const streamIds: string[] = [];

  const post = async (key: string, provider: string, body: unknown): Promise<{ streamId: string; events: unknown[] }> => {
    const response = await fetch(`${pipeline.gateway.url}/v1/streams/${provider}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    const events = (await collectSse(response, { timeoutMs: 30_000 })).map((event) => JSON.parse(event.data) as { stream_id: string });
    streamIds.push(events[0]!.stream_id);
    return { streamId: events[0]!.stream_id, events };
  };

  beforeAll(async () => {
    cpSync(transcriptsDir(), dir, { recursive: true });
    writeFileSync(join(dir, 'anthropic', `${ESCAPED_CASE}.sse`), escapedKeyTranscript());
    const keys = { OPENAI_API_KEY: CANARY, ANTHROPIC_API_KEY: CANARY, GEMINI_API_KEY: CANARY };
    pipeline = await startPipeline({ gatewayEnv: keys, replayEnv: { REPLAY_TRANSCRIPTS_DIR: dir, REPLAY_REQUIRE_API_KEY: CANARY } });
    audit = await startAudit({ ...pipeline.auditEnv, AUDIT_SQLITE_PATH: join(pipeline.dir, 'audit.sqlite'), AUDIT_PROMPT_CAPTURE_TENANTS: GLOBEX.tenant });
    tap = pipeline.jetstream.nc.subscribe('llm.>', {
      callback: (_error, message) => {
        tapped.push(`${message.subject}\n${headerText(message.headers)}\n${message.string()}`);
      },
    });
    await pipeline.jetstream.nc.flush();

    // An error response echoing the key in a header and, escaped and encoded, in its body.
    const scenario = await fetch(`${pipeline.replay.url}/_replay/scenarios`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        responses: [
          {
            status: 401,
            headers: { 'x-request-id': CANARY },
            body: `{"error":{"message":"Incorrect API key provided: ${unicodeEscaped(CANARY, () => true, true)} (${encodeURIComponent(CANARY)}, ${Buffer.from(CANARY).toString('base64')})","code":"invalid_api_key"}}`,
          },
        ],
      }),
    });
    const { id } = (await scenario.json()) as { id: string };
    await post(ACME.key, 'openai-chat', { model: `scenario:${id}`, messages: [{ role: 'user', content: 'hi' }] });
    // A frame whose JSON carries the key escaped three ways.
    const escaped = await post(ACME.key, 'anthropic', { model: ESCAPED_CASE, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
    expect(escaped.events.some((event) => JSON.stringify(event).includes('[redacted]'))).toBe(true);
    // A captured client request (globex's key records prompts) into which the user typed the key.
    await post(GLOBEX.key, 'anthropic', { model: 'simple_text', max_tokens: 16, messages: [{ role: 'user', content: `my key is ${CANARY}` }] });
    await waitFor(
      async () => {
        for (const [index, streamId] of streamIds.entries()) {
          const key = index === 2 ? GLOBEX.key : ACME.key;
          const { status, body } = await getJson<{ stream: { status: string } }>(`${audit.url}/v1/streams/${streamId}`, key);
          if (status !== 200 || body.stream.status === 'running') return false;
        }
        return true;
      },
      { timeoutMs: 30_000, intervalMs: 200, description: 'the three streams to be stored' },
    );
  });

  afterAll(async () => {
    tap.unsubscribe();
    await audit.stop();
    await pipeline.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('was sent upstream and echoed back (so the checks below can fail)', () => {
    expect(holdsCanary(escapedKeyTranscript())).toBe(true);
    expect(tapped.length).toBeGreaterThan(20);
  });

  it('is in no NATS message: raw trace and events, subject, headers and payload', () => {
    expect(tapped.filter(holdsCanary)).toEqual([]);
  });

  it('is in no audit record (detail, raw, prompt) and nowhere in the audit store file', async () => {
    for (const [index, streamId] of streamIds.entries()) {
      const key = index === 2 ? GLOBEX.key : ACME.key;
      for (const route of ['', '/raw']) {
        const { body } = await getJson(`${audit.url}/v1/streams/${streamId}${route}`, key);
        expect({ streamId, route, leaked: holdsCanary(JSON.stringify(body)) }).toEqual({ streamId, route, leaked: false });
      }
    }
    const prompt = (await getJson<{ prompt?: unknown }>(`${audit.url}/v1/streams/${streamIds[2]!}`, GLOBEX.key)).body.prompt;
    expect(JSON.stringify(prompt)).toContain('my key is [redacted]');
    // The database file and its write-ahead log, byte for byte.
    for (const file of ['audit.sqlite', 'audit.sqlite-wal'].map((name) => join(pipeline.dir, name)).filter((path) => existsSync(path))) {
      expect({ file, leaked: holdsCanary(readFileSync(file).toString('latin1')) }).toEqual({ file, leaked: false });
    }
  });

  it('is on no log line of the gateway, the normalizer or the audit log', () => {
    const lines = [pipeline.gateway, pipeline.normalizer, audit].flatMap((service) => service.process.lines);
    expect(lines.length).toBeGreaterThan(10);
    expect(lines.filter(holdsCanary)).toEqual([]);
  });
});
