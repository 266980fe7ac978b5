import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Subscription } from '@nats-io/nats-core';
import type { ContractEvent, RawTrace } from '@llm-stream/contract';
import { collectSse, repoRoot, transcriptsDir, waitFor } from '@llm-stream/testing';
import { getJson } from './support/http.js';
import { startPipeline, storedInFull, type Pipeline } from './support/pipeline.js';
import { startAudit, type Service } from './support/services.js';
import { ACME, ACME_SCOPED } from './support/tenants.js';

/**
 * The provider key of every route, with no `sk-` or `AIza` shape: the audit log's own pattern redaction does
 * not know it, so only the gateway's redaction stands between it and what is stored.
 */
const KEY = 'route7Qx2LmN4pR8vT1wZ6yB3dF9';
const MAX_ERROR_BODY_BYTES = 65_536;
/** How much of the key comes before a cut: more than the 8 characters that must not survive. */
const BEFORE_CUT = 12;
const SPLIT_CASE = 'key_split_across_deltas';
const CUT_CASE = 'key_cut_by_the_connection';

function anthropicTranscript(deltas: readonly string[]): string {
  const record = (event: string, data: unknown): string => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
  return [
    record('message_start', { type: 'message_start', message: { id: 'msg_key', type: 'message', role: 'assistant', model: 'claude', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } }),
    record('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    ...deltas.map((text) => record('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } })),
    record('content_block_stop', { type: 'content_block_stop', index: 0 }),
    record('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 9 } }),
    record('message_stop', { type: 'message_stop' }),
  ].join('');
}

/** The text with the escapes the gateway's redaction knows decoded, so that the key shows in any of its forms. */
function decoded(text: string): string {
  return text
    .replace(/\\+u([0-9a-fA-F]{4})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/\\+\//g, '/')
    .replace(/%([0-9a-fA-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

const holdsWholeKey = (text: string): boolean => decoded(text).includes(KEY);
const holdsKeyStart = (text: string): boolean => decoded(text).includes(KEY.slice(0, 8));

/** A place where an echoed key can be read whole: an audit route and the member of its answer. */
interface Place {
  readonly route: string;
  readonly member: string;
  readonly scope: 'audit:read' | 'audit:full';
}

/** The places docs/security.md lists: its table rows "| `GET …` | `member` | `scope` |". */
function documentedPlaces(): Place[] {
  const docs = readFileSync(join(repoRoot(), 'docs/security.md'), 'utf8');
  return [...docs.matchAll(/^\| `(GET [^`]+)` \| `([a-z_]+)` \| `(audit:read|audit:full)` \|/gm)].map(([, route = '', member = '', scope = '']) => ({
    route,
    member,
    scope: scope as Place['scope'],
  }));
}

describe('a provider key without a credential shape, echoed where the redaction has edges (the real pipeline)', () => {
  let pipeline: Pipeline;
  let audit: Service;
  let tap: Subscription;
  const tapped: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'key-edges-transcripts-'));
  /** The split stream, as its client read it. */
  let split: { streamId: string; events: ContractEvent[]; sse: string[] };
  /** The streams cut in the middle of the key: by the error-body limit, by a broken connection. */
  const cut: string[] = [];
  const before = 'Your key is ';
  const cutTranscript = anthropicTranscript([`${before}${KEY}, keep it safe.`]);

  const post = async (provider: string, body: unknown): Promise<{ streamId: string; events: ContractEvent[]; sse: string[] }> => {
    const response = await fetch(`${pipeline.gateway.url}/v1/streams/${provider}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ACME.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    const sse = (await collectSse(response, { timeoutMs: 30_000 })).map((event) => event.data);
    const events = sse.map((data) => JSON.parse(data) as ContractEvent);
    return { streamId: events[0]?.stream_id ?? '', events, sse };
  };

  const scenario = async (response: unknown): Promise<string> => {
    const answer = await fetch(`${pipeline.replay.url}/_replay/scenarios`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ responses: [response] }),
    });
    expect(answer.status).toBe(201);
    return ((await answer.json()) as { id: string }).id;
  };

  beforeAll(async () => {
    cpSync(transcriptsDir(), dir, { recursive: true });
    writeFileSync(join(dir, 'anthropic', `${SPLIT_CASE}.sse`), anthropicTranscript([`The key: ${KEY.slice(0, BEFORE_CUT)}`, `${KEY.slice(BEFORE_CUT)}, keep it safe.`]));
    writeFileSync(join(dir, 'anthropic', `${CUT_CASE}.sse`), cutTranscript);
    const keys = { OPENAI_API_KEY: KEY, ANTHROPIC_API_KEY: KEY, GEMINI_API_KEY: KEY };
    pipeline = await startPipeline({ gatewayEnv: keys, replayEnv: { REPLAY_TRANSCRIPTS_DIR: dir, REPLAY_REQUIRE_API_KEY: KEY } });
    audit = await startAudit({ ...pipeline.auditEnv, AUDIT_SQLITE_PATH: join(pipeline.dir, 'audit.sqlite') });
    tap = pipeline.jetstream.nc.subscribe('llm.>', {
      callback: (_error, message) => {
        const headers = message.headers === undefined ? [] : [...message.headers.keys()].flatMap((name) => message.headers?.values(name) ?? []);
        tapped.push([message.subject, ...headers, message.string()].join('\n'));
      },
    });
    await pipeline.jetstream.nc.flush();

    split = await post('anthropic', { model: SPLIT_CASE, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
    // An error body that puts the key across the gateway's 65,536-byte limit.
    const message = '{"error":{"message":"Incorrect API key provided: ';
    const errorBody = `${message}${'x'.repeat(MAX_ERROR_BODY_BYTES - message.length - BEFORE_CUT)}${KEY}","code":"invalid_api_key"}}`;
    const errorId = await scenario({ status: 400, body: errorBody });
    cut.push((await post('openai-chat', { model: `scenario:${errorId}`, messages: [{ role: 'user', content: 'hi' }] })).streamId);
    // A connection that breaks in the middle of the key: the gateway keeps the partial frame.
    const cutAfterBytes = Buffer.byteLength(cutTranscript.slice(0, cutTranscript.indexOf(KEY) + BEFORE_CUT));
    const cutId = await scenario({ transcript: { provider: 'anthropic', case: CUT_CASE }, cut_after_bytes: cutAfterBytes });
    cut.push((await post('anthropic', { model: `scenario:${cutId}`, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] })).streamId);

    // Stored in full (every raw record too): the checks below read the stored trace and the database file.
    const ids = [split.streamId, ...cut];
    await waitFor(async () => (await Promise.all(ids.map((streamId) => storedInFull(pipeline, audit.url, ACME.key, ACME.tenant, streamId)))).every(Boolean), {
      timeoutMs: 30_000,
      intervalMs: 200,
      description: 'the three streams to be stored in full',
    });
  });

  afterAll(async () => {
    tap.unsubscribe();
    await audit.stop();
    await pipeline.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Every audit route's answer about a stream, by route, read with a key of each audit scope. */
  const auditAnswers = async (streamId: string): Promise<{ route: string; scope: Place['scope']; body: unknown }[]> => {
    const routes = [
      ['GET /v1/streams', '/v1/streams'],
      ['GET /v1/streams/{id}', `/v1/streams/${streamId}`],
      ['GET /v1/streams/{id}/raw', `/v1/streams/${streamId}/raw`],
      ['GET /v1/streams/{id}/verify', `/v1/streams/${streamId}/verify`],
      ['GET /v1/streams/{id}/replay', `/v1/streams/${streamId}/replay`],
      ['GET /v1/replay', '/v1/replay'],
      ['GET /v1/replay/traces', '/v1/replay/traces'],
    ] as const;
    const answers: { route: string; scope: Place['scope']; body: unknown }[] = [];
    for (const [scope, key] of [['audit:read', ACME_SCOPED.read], ['audit:full', ACME.key]] as const) {
      for (const [route, path] of routes) {
        const { status, body } = await getJson(`${audit.url}${path}`, key);
        // The replay routes are audit:full only; every other answer must be there to be searched.
        if (status === 403 && scope === 'audit:read') continue;
        expect({ route, scope, status }).toEqual({ route, scope, status: 200 });
        answers.push({ route, scope, body });
      }
    }
    return answers;
  };

  it('echoed, loses every start of 8 characters or more where the gateway cuts bytes: on NATS, in every audit answer and in the store', async () => {
    // The stored raw records (GET /raw): the error body and the partial frame end with the redaction.
    const [errorRaw, brokenRaw] = await Promise.all(cut.map(async (streamId) => (await getJson<RawTrace>(`${audit.url}/v1/streams/${streamId}/raw`, ACME.key)).body.records));
    const errorBody = errorRaw?.flatMap(({ record }) => (record?.kind === 'upstream.response' && record.body !== undefined ? [record.body.slice(-20)] : []));
    expect(errorBody).toEqual(['xxxxxxxxxx[redacted]']);
    // The last frame is the partial one, kept when the connection broke.
    expect(brokenRaw?.filter((entry) => entry.text !== undefined).at(-1)?.text?.slice(-23)).toBe('"Your key is [redacted]');

    expect(tapped.filter((message) => cut.some((streamId) => message.includes(streamId))).length).toBeGreaterThan(4);
    expect(tapped.filter((message) => cut.some((streamId) => message.includes(streamId)) && holdsKeyStart(message))).toEqual([]);
    for (const streamId of cut) {
      // The routes about this stream (the tenant-wide ones also hold the split stream, whose first delta ends
      // with a start of the key by design).
      const leaks = (await auditAnswers(streamId)).filter(({ route, body }) => route.includes('{id}') && holdsKeyStart(JSON.stringify(body)));
      expect(leaks.map(({ route, scope }) => ({ streamId, route, scope }))).toEqual([]);
    }
    // The database file and its write-ahead log, byte for byte (the split stream holds a start by design, after
    // another text).
    for (const file of ['audit.sqlite', 'audit.sqlite-wal'].map((name) => join(pipeline.dir, name)).filter((path) => existsSync(path))) {
      const stored = readFileSync(file).toString('latin1');
      expect({ file, cutStarts: [`x${KEY.slice(0, 8)}`, `${before}${KEY.slice(0, 8)}`].filter((start) => stored.includes(start)) }).toEqual({ file, cutStarts: [] });
    }
  });

  it('split across two deltas, is whole only in what is assembled: the client’s own text, and the audit places docs/security.md lists', async () => {
    // The client's own assembled text holds it; no SSE event, NATS message or log line does.
    const text = split.events.map((event) => (event.type === 'block.delta' ? event.delta.text : '')).join('');
    expect(text).toBe(`The key: ${KEY}, keep it safe.`);
    expect(split.sse.filter(holdsWholeKey)).toEqual([]);
    expect(tapped.filter(holdsWholeKey)).toEqual([]);
    expect([pipeline.gateway, pipeline.normalizer, audit].flatMap((service) => service.process.lines).filter(holdsWholeKey)).toEqual([]);
    // Nothing stored holds it whole: the database file and its write-ahead log, byte for byte.
    for (const file of ['audit.sqlite', 'audit.sqlite-wal'].map((name) => join(pipeline.dir, name)).filter((path) => existsSync(path))) {
      expect({ file, whole: holdsWholeKey(readFileSync(file).toString('latin1')) }).toEqual({ file, whole: false });
    }

    // Where the audit log assembles it on reading: every member of every answer that holds it whole, and the
    // least scope that reads it there.
    const found = new Map<string, Place>();
    for (const { route, scope, body } of await auditAnswers(split.streamId)) {
      for (const [member, value] of Object.entries(body as Record<string, unknown>)) {
        const place = { route, member, scope };
        if (holdsWholeKey(JSON.stringify(value)) && !found.has(`${route} ${member}`)) found.set(`${route} ${member}`, place);
      }
    }
    const byName = (a: Place, b: Place): number => `${a.route} ${a.member}`.localeCompare(`${b.route} ${b.member}`);
    expect([...found.values()].sort(byName)).toEqual(documentedPlaces().sort(byName));
    expect(found.size).toBeGreaterThan(0);
  });
});
