import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ContractEvent, ProviderName } from '@llm-stream/contract';
import { listTranscripts, waitFor, type TranscriptFile } from '@llm-stream/testing';
import { getJson } from './support/http.js';
import { mapConcurrently, providerRequest, startPipeline, streamThroughGateway, type Pipeline } from './support/pipeline.js';
import { startAudit, type Service } from './support/services.js';
import { ACME, ACME_SCOPED } from './support/tenants.js';

interface Detail {
  stream: { status: string };
  events: ContractEvent[];
  result: { blocks: { kind: string; text?: string; signature?: string }[] };
}

interface RawEntry {
  raw_seq: number;
  kind: string;
  text?: string;
  withheld?: { raw_seq: number; bytes: number };
  events: ContractEvent[];
}

interface RawTrace {
  records: RawEntry[];
}

const isReasoningEvent = (event: ContractEvent): boolean => 'block' in event && event.block.kind === 'reasoning';

/** The conformance kit's transcripts whose expected events hold a reasoning block. */
function reasoningTranscripts(): TranscriptFile[] {
  return listTranscripts().filter((file) => {
    const events = JSON.parse(readFileSync(file.ssePath.replace(/\.sse$/, '.events.json'), 'utf8')) as ContractEvent[];
    return events.some(isReasoningEvent);
  });
}

/** Every piece of withheld content of a stream (8 characters or more): deltas, block texts, signatures. */
function reasoningFragments(full: Detail): string[] {
  const fragments = full.events.flatMap((event) => (event.type === 'block.delta' && isReasoningEvent(event) ? [event.delta.text] : []));
  for (const block of full.result.blocks.filter((candidate) => candidate.kind === 'reasoning')) fragments.push(block.text ?? '', block.signature ?? '');
  // Encrypted reasoning and signatures ride in the reasoning block's block.stop.
  for (const event of full.events) if (event.type === 'block.stop' && isReasoningEvent(event)) fragments.push(...stringsOf(event.provider_metadata ?? {}));
  // A fragment the visible answer repeats (" in Lyon" in both the thinking and the text) is no leak.
  const visible = full.events.filter((event) => !isReasoningEvent(event));
  const repeated = new Set(leaks(visible, fragments));
  return fragments.filter((fragment) => fragment.length >= 8 && !repeated.has(fragment));
}

function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value !== 'object' || value === null) return [];
  return Object.values(value).flatMap(stringsOf);
}

/** A body's text as JSON, and every string value in it decoded (a fragment escaped in a frame still matches). */
function leaks(body: unknown, fragments: readonly string[]): string[] {
  const strings: string[] = [];
  const pending: unknown[] = [body];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      strings.push(value);
      for (const line of value.split('\n')) {
        if (!line.startsWith('data:')) continue;
        try {
          pending.push(JSON.parse(line.slice(5)) as unknown);
        } catch {
          // not JSON: its raw text is checked
        }
      }
    } else if (Array.isArray(value)) for (const item of value as unknown[]) pending.push(item);
    else if (typeof value === 'object' && value !== null) for (const member of Object.values(value as Record<string, unknown>)) pending.push(member);
  }
  return fragments.filter((fragment) => strings.some((text) => text.includes(fragment)));
}

describe('audit scopes: the projection of every audit route, per scope, on the conformance reasoning transcripts', () => {
  let pipeline: Pipeline;
  let audit: Service;
  const streams: { file: TranscriptFile; streamId: string }[] = [];

  beforeAll(async () => {
    pipeline = await startPipeline();
    audit = await startAudit({ ...pipeline.auditEnv, AUDIT_SQLITE_PATH: join(pipeline.dir, 'audit.sqlite') });
    const files = reasoningTranscripts();
    const recorded = await mapConcurrently(files, 4, (file) => streamThroughGateway(pipeline.gateway.url, ACME.key, file.provider as ProviderName, file.name));
    files.forEach((file, index) => streams.push({ file, streamId: recorded[index]!.streamId }));
    await waitFor(
      async () => {
        for (const { streamId } of streams) {
          const { status, body } = await getJson<Detail>(`${audit.url}/v1/streams/${streamId}`, ACME.key);
          if (status !== 200 || body.stream.status === 'running') return false;
        }
        return true;
      },
      { timeoutMs: 60_000, intervalMs: 250, description: 'every reasoning stream to be stored' },
    );
  });

  afterAll(async () => {
    await audit.stop();
    await pipeline.stop();
  });

  it('has reasoning transcripts to try (so the checks below can fail)', () => {
    expect(streams.length).toBeGreaterThanOrEqual(8);
  });

  it('audit:full reads the full truth: every reasoning event, every frame as received', async () => {
    for (const { file, streamId } of streams) {
      const detail = (await getJson<Detail>(`${audit.url}/v1/streams/${streamId}`, ACME.key)).body;
      expect({ transcript: `${file.provider}/${file.name}`, reasoning: detail.events.some(isReasoningEvent) }).toEqual({ transcript: `${file.provider}/${file.name}`, reasoning: true });
      const raw = (await getJson<RawTrace>(`${audit.url}/v1/streams/${streamId}/raw`, ACME.key)).body;
      expect(raw.records.filter((entry) => entry.withheld !== undefined)).toEqual([]);
    }
  });

  it('audit:read with the reasoning policy reads what the gateway shows that key: everything', async () => {
    for (const { streamId } of streams) {
      for (const route of ['', '/raw']) {
        const full = await getJson(`${audit.url}/v1/streams/${streamId}${route}`, ACME.key);
        const read = await getJson(`${audit.url}/v1/streams/${streamId}${route}`, ACME_SCOPED.readReasoning);
        expect(read).toEqual(full);
      }
    }
  });

  it('audit:read without the policy gets no reasoning on any route: no event, no block, no frame that carries it', async () => {
    for (const { file, streamId } of streams) {
      const transcript = `${file.provider}/${file.name}`;
      const full = (await getJson<Detail>(`${audit.url}/v1/streams/${streamId}`, ACME.key)).body;
      const fullRaw = (await getJson<RawTrace>(`${audit.url}/v1/streams/${streamId}/raw`, ACME.key)).body;
      const fragments = reasoningFragments(full);
      expect({ transcript, fragments: fragments.length > 0 }).toEqual({ transcript, fragments: true });

      const detail = await getJson<Detail>(`${audit.url}/v1/streams/${streamId}`, ACME_SCOPED.read);
      expect(detail.status).toBe(200);
      expect({ transcript, events: detail.body.events }).toEqual({ transcript, events: full.events.filter((event) => !isReasoningEvent(event)) });
      expect(detail.body.result.blocks.map((block) => block.kind)).toEqual(full.result.blocks.map((block) => block.kind).filter((kind) => kind !== 'reasoning'));

      const raw = await getJson<RawTrace>(`${audit.url}/v1/streams/${streamId}/raw`, ACME_SCOPED.read);
      expect(raw.status).toBe(200);
      expect(raw.body.records.length).toBe(fullRaw.records.length);
      for (const [index, entry] of raw.body.records.entries()) {
        const original = fullRaw.records[index]!;
        expect(entry.events).toEqual(original.events.filter((event) => !isReasoningEvent(event)));
        // Every frame that produced a reasoning event is a placeholder naming its raw_seq and length.
        if (original.events.some(isReasoningEvent)) {
          const bytes = Buffer.byteLength(original.text ?? '', 'utf8');
          expect({ transcript, entry: { withheld: entry.withheld, text: entry.text } }).toEqual({
            transcript,
            entry: { withheld: { raw_seq: original.raw_seq, bytes }, text: `[withheld: raw_seq ${String(original.raw_seq)}, ${String(bytes)} bytes of reasoning]` },
          });
        }
      }

      // A page (the console's live reads) withholds the same frames as the whole read: a frame's fate depends on
      // the whole stream's reasoning, not on the page it is read in.
      const paged: RawTrace['records'] = [];
      for (let after = 0, more = true; more; ) {
        const { body } = await getJson<RawTrace & { page: { last_js_seq: number; more: boolean } }>(`${audit.url}/v1/streams/${streamId}/raw?after_js_seq=${String(after)}&limit=2`, ACME_SCOPED.read);
        paged.push(...body.records);
        ({ more } = body.page);
        after = body.page.last_js_seq;
      }
      expect({ transcript, paged }).toEqual({ transcript, paged: raw.body.records });
      const half = Math.floor(full.events.length / 2);
      const tail = (await getJson<Detail>(`${audit.url}/v1/streams/${streamId}?after_seq=${String(half)}`, ACME_SCOPED.read)).body;
      expect({ transcript, tail: tail.events }).toEqual({ transcript, tail: detail.body.events.filter((event) => event.seq > half) });

      for (const route of ['', '/raw', '/raw?after_js_seq=0', `?after_seq=${String(half)}`, '/verify']) {
        const body = (await getJson(`${audit.url}/v1/streams/${streamId}${route}`, ACME_SCOPED.read)).body;
        expect({ transcript, route, leaked: leaks(body, fragments) }).toEqual({ transcript, route, leaked: [] });
      }
    }
    const list = await getJson(`${audit.url}/v1/streams?limit=100`, ACME_SCOPED.read);
    expect(list.status).toBe(200);
    for (const { streamId } of streams) {
      const full = (await getJson<Detail>(`${audit.url}/v1/streams/${streamId}`, ACME.key)).body;
      expect(leaks(list.body, reasoningFragments(full))).toEqual([]);
    }
  });

  it('a key without an audit scope gets 403 insufficient_scope on every audit route; one without streams, 403 on the gateway', async () => {
    const { streamId } = streams[0]!;
    for (const route of ['/v1/streams', `/v1/streams/${streamId}`, `/v1/streams/${streamId}/raw`, `/v1/streams/${streamId}/verify`, '/v1/stats']) {
      expect({ route, ...(await getJson(`${audit.url}${route}`, ACME_SCOPED.streamsOnly)) }).toMatchObject({
        route,
        status: 403,
        body: { error: { code: 'insufficient_scope' } },
      });
    }
    const refused = await fetch(`${pipeline.gateway.url}/v1/streams/anthropic`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ACME_SCOPED.read}`, 'content-type': 'application/json' },
      body: JSON.stringify(providerRequest('anthropic', 'simple_text')),
    });
    expect({ status: refused.status, body: await refused.json() }).toMatchObject({ status: 403, body: { error: { code: 'insufficient_scope' } } });
    const resume = await getJson(`${pipeline.gateway.url}/v1/streams/${streamId}/events`, ACME_SCOPED.read);
    expect(resume.status).toBe(403);
  });
});
