import { setTimeout as sleep } from 'node:timers/promises';
import { createSseParser } from '@llm-stream/testing';
import { receivedContentHash } from '../check/event-content.js';
import type { ClientRecord, ClientRequest, SeenEvent } from '../recorded-run.js';
import { TENANTS } from './system.js';
import { requestBody, type StreamPlan } from './workload.js';

/** A pause of the reader, for the slow-reader fault: after `afterEvents` events, read nothing for `pauseMs`. */
export interface SlowReading {
  readonly afterEvents: number;
  readonly pauseMs: number;
  readonly onPause: (startedAt: number, endedAt: number) => void;
}

export interface ClientOptions {
  /** Base URLs of the gateways; the client starts on `first` and moves to the next one when a connection breaks. */
  readonly gateways: readonly string[];
  readonly first: number;
  /** The whole client gives up (its record then shows what it got) when this aborts. */
  readonly signal: AbortSignal;
  readonly burst: boolean;
  readonly slow?: SlowReading;
}

type Attempt = { readonly terminal: boolean; readonly request: ClientRequest; readonly streamId: string | null };

function isTerminal(type: string): boolean {
  return type === 'stream.done' || type === 'stream.error';
}

/**
 * One client as a real one behaves: POST the request to a gateway; when the connection breaks before the
 * terminal event, resume with `Last-Event-ID` on the other gateway; when a POST is refused or cannot connect,
 * try the other gateway (burst clients give up on a refusal: the refusal is what the run counts).
 */
export async function runClientStream(plan: StreamPlan, options: ClientOptions): Promise<ClientRecord> {
  const tenant = TENANTS[plan.tenantIndex] ?? TENANTS[0];
  const startedAt = Date.now();
  const events: SeenEvent[] = [];
  const requests: ClientRequest[] = [];
  let streamId: string | null = null;
  let gateway = options.first;
  let slow = options.slow;
  let failures = 0;
  const headers = { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json' };

  const read = async (response: Response, kind: ClientRequest['kind'], base: string, at: number): Promise<Attempt> => {
    const id = response.headers.get('x-stream-id');
    if (response.status !== 200 || response.body === null) {
      const text = await response.text().catch(() => '');
      return { terminal: false, streamId: id, request: { kind, gateway: base, at, status: response.status, error: text.slice(0, 200), events: 0 } };
    }
    const parser = createSseParser();
    const decoder = new TextDecoder();
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let count = 0;
    let error: string | null = 'the body ended before the terminal event';
    try {
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) break;
        for (const record of parser.feed(decoder.decode(chunk.value, { stream: true }))) {
          const seq = Number(record.id);
          const type = record.event ?? 'message';
          events.push({ seq, type, hash: receivedContentHash(record.data), at: Date.now() });
          count += 1;
          if (isTerminal(type)) error = null;
          if (slow !== undefined && events.length >= slow.afterEvents) {
            const pausedAt = Date.now();
            await sleep(slow.pauseMs, undefined, { signal: options.signal });
            slow.onPause(pausedAt, Date.now());
            slow = undefined;
          }
        }
        if (error === null) break;
      }
    } catch (caught: unknown) {
      error = caught instanceof Error ? caught.message : String(caught);
    } finally {
      await reader.cancel().catch(() => undefined);
    }
    return { terminal: error === null, streamId: id, request: { kind, gateway: base, at, status: 200, error, events: count } };
  };

  while (!options.signal.aborted) {
    const base = options.gateways[gateway % options.gateways.length] ?? '';
    const at = Date.now();
    const kind = streamId === null ? 'post' : 'resume';
    let attempt: Attempt;
    try {
      if (kind === 'post') {
        const body = JSON.stringify(requestBody(plan.provider, `scenario:${plan.key}`));
        const response = await fetch(`${base}/v1/streams/${plan.provider}`, { method: 'POST', headers, body, signal: options.signal });
        attempt = await read(response, kind, base, at);
      } else {
        const last = events.at(-1)?.seq ?? 0;
        // As a browser's EventSource resumes: the last id it saw, in the Last-Event-ID header.
        const response = await fetch(`${base}/v1/streams/${streamId ?? ''}/events`, { headers: { ...headers, 'last-event-id': String(last) }, signal: options.signal });
        attempt = await read(response, kind, base, at);
      }
    } catch (caught: unknown) {
      attempt = { terminal: false, streamId: null, request: { kind, gateway: base, at, status: null, error: caught instanceof Error ? caught.message : String(caught), events: 0 } };
    }
    requests.push(attempt.request);
    streamId ??= attempt.streamId;
    if (attempt.terminal) break;
    if (options.burst && streamId === null && attempt.request.status !== null) break;
    gateway += 1;
    failures += 1;
    // A real client backs off a little before it tries again, more after repeated failures.
    await sleep(Math.min(2_000, 100 * failures), undefined, { signal: options.signal }).catch(() => undefined);
  }
  return {
    key: plan.key,
    tenant: tenant.tenant,
    workload: plan.workload,
    burst: options.burst,
    slowReader: options.slow !== undefined,
    startedAt,
    endedAt: Date.now(),
    streamId,
    requests,
    events,
  };
}
