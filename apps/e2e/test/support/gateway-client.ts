import { request, type IncomingMessage } from 'node:http';
import type { ContractEvent, ProviderName } from '@llm-stream/contract';
import { collectSse, readSseStream, type SseEvent } from '@llm-stream/testing';
import { API_KEYS, type KeyName } from './api-keys.js';
import { checkExchange } from './openapi-check.js';

/** What a gateway answered: a stream's events, or an error's JSON body. */
export interface GatewayReply {
  readonly status: number;
  readonly contentType: string | null;
  /** The `x-stream-id` header of a stream answer. */
  readonly streamId: string | undefined;
  readonly events: ContractEvent[];
  /** The JSON body of a non-stream answer (an error). */
  readonly json: unknown;
}

export interface RequestOptions {
  /** One of the suites' keys (default `acme`), or a literal key. */
  readonly key?: KeyName | { readonly literal: string } | null;
  readonly query?: Readonly<Record<string, string>>;
  readonly headers?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

export function authHeaders(key: RequestOptions['key']): Record<string, string> {
  if (key === null) return {};
  const value = key === undefined ? API_KEYS.acme : typeof key === 'string' ? API_KEYS[key] : key.literal;
  return { authorization: `Bearer ${value}` };
}

function urlOf(base: string, path: string, query: Readonly<Record<string, string>> = {}): URL {
  const url = new URL(path, base);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url;
}

/**
 * The contract events of SSE records, checking the framing the API promises: `id` is the event's seq and
 * `event` its type.
 */
export function contractEvents(records: readonly SseEvent[]): ContractEvent[] {
  return records.map((record) => {
    const event = JSON.parse(record.data) as ContractEvent;
    if (record.id !== String(event.seq) || record.event !== event.type) {
      throw new Error(`SSE record id/event (${String(record.id)}, ${String(record.event)}) do not match its event: ${record.data}`);
    }
    return event;
  });
}

/** Read to the end, and checked against the gateway's OpenAPI document and the contract's JSON Schema. */
async function reply(method: string, response: Response, timeoutMs: number): Promise<GatewayReply> {
  const contentType = response.headers.get('content-type');
  const streamId = response.headers.get('x-stream-id') ?? undefined;
  const { url, status } = response;
  if (response.status === 200 && contentType?.startsWith('text/event-stream') === true) {
    const records = await collectSse(response, { timeoutMs });
    await checkExchange({ method, url, status, contentType, sseData: records.map((record) => record.data) });
    return { status: response.status, contentType, streamId, events: contractEvents(records), json: undefined };
  }
  const text = await response.text();
  let json: unknown = text;
  try {
    json = JSON.parse(text);
  } catch {
    // Kept as text: the test's assertion shows it.
  }
  await checkExchange({ method, url, status, contentType, body: json });
  return { status: response.status, contentType, streamId, events: [], json };
}

/** Sends a request without reading its body: for the tests that read a stream piece by piece. */
export function openStream(gatewayUrl: string, provider: string, body: unknown, options: RequestOptions = {}): Promise<Response> {
  return fetch(urlOf(gatewayUrl, `/v1/streams/${provider}`, options.query), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...authHeaders(options.key), ...options.headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...(options.signal !== undefined && { signal: options.signal }),
  });
}

/** POST /v1/streams/{provider}, read to the end. */
export async function postStream(gatewayUrl: string, provider: string, body: unknown, options: RequestOptions = {}): Promise<GatewayReply> {
  return reply('POST', await openStream(gatewayUrl, provider, body, options), options.timeoutMs ?? 20_000);
}

/** GET /v1/streams/{id}/events with Last-Event-ID, read to the end. */
export async function resumeStream(
  gatewayUrl: string,
  streamId: string,
  lastEventId: number | undefined,
  options: RequestOptions = {},
): Promise<GatewayReply> {
  const response = await fetch(urlOf(gatewayUrl, `/v1/streams/${streamId}/events`, options.query), {
    headers: {
      ...authHeaders(options.key),
      ...(lastEventId !== undefined && { 'last-event-id': String(lastEventId) }),
      ...options.headers,
    },
  });
  return reply('GET', response, options.timeoutMs ?? 20_000);
}

/** DELETE /v1/streams/{id}. */
export async function cancelStream(
  gatewayUrl: string,
  streamId: string,
  options: RequestOptions = {},
): Promise<{ status: number; json: unknown }> {
  const response = await fetch(urlOf(gatewayUrl, `/v1/streams/${streamId}`), { method: 'DELETE', headers: authHeaders(options.key) });
  const json: unknown = await response.json();
  await checkExchange({ method: 'DELETE', url: response.url, status: response.status, contentType: response.headers.get('content-type'), body: json });
  return { status: response.status, json };
}

/** Reads events of an open stream until `until` accepts one; the stream stays open for more. */
export async function readUntil(events: AsyncIterator<SseEvent>, until: (event: ContractEvent) => boolean): Promise<ContractEvent[]> {
  const seen: ContractEvent[] = [];
  for (;;) {
    const next = await events.next();
    if (next.done === true) return seen;
    const [event] = contractEvents([next.value]);
    if (event === undefined) continue;
    seen.push(event);
    if (until(event)) return seen;
  }
}

export { readSseStream };

/**
 * POST over node:http with the response paused: the test decides when to read, as a client that reads
 * slowly (or not at all for a while) does. Resolves once the status line arrived.
 */
export function postPaused(gatewayUrl: string, provider: ProviderName, body: unknown, key: KeyName = 'acme'): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const outgoing = request(urlOf(gatewayUrl, `/v1/streams/${provider}`), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...authHeaders(key) },
    });
    outgoing.on('response', (response) => {
      response.pause();
      resolve(response);
    });
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}
