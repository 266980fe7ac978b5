import type { EventSourceMessage } from 'eventsource-parser';
import { registerScenario } from './support/control.js';
import { PROVIDER_NAMES, providerRequest, transcript, type Provider } from './support/endpoints.js';
import { exchange } from './support/http-exchange.js';
import { startReplay, type ReplayServer } from './support/replay-process.js';
import { parseSse } from './support/sse.js';

let server: ReplayServer;
beforeAll(async () => {
  server = await startReplay();
});
afterAll(async () => {
  await server.stop();
});

/** The wire fields the assertions read, per provider (the shape test below checks everything else). */
interface ChatChunk {
  choices: { delta: { content?: string | null }; finish_reason: string | null }[];
  usage?: { completion_tokens: number } | null;
}
interface ResponsesEvent {
  type: string;
  sequence_number: number;
  delta?: string;
  text?: string;
  response?: { output: { content: { text: string }[] }[] };
}
interface AnthropicEvent {
  type: string;
  delta?: { text?: string };
}
interface InteractionsEvent {
  event_type: string;
  event_id?: string;
  delta?: { type: string; text?: string };
  interaction?: { status: string; usage?: { total_output_tokens: number } };
}

interface GeminiChunk {
  candidates: { finishReason?: string; content: { parts: { text: string }[] } }[];
}

function dataOf<T>(events: EventSourceMessage[]): T[] {
  return events.filter((event) => event.data !== '[DONE]').map((event) => JSON.parse(event.data) as T);
}

async function synthetic(provider: Provider, spec: Record<string, unknown>, body: Record<string, unknown> = {}) {
  const id = await registerScenario(server.url, { responses: [{ synthetic: spec }] });
  const request = providerRequest(provider, id);
  return exchange(server.url, request.path, { ...request.body, ...body });
}

/** The record's skeleton: event name, then the JSON with every leaf replaced by its type, key order kept. */
function shape(event: EventSourceMessage): string {
  const skeleton = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(skeleton);
    if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, skeleton(item)]));
    return value === null ? 'null' : typeof value;
  };
  return `${event.event ?? ''} ${event.data === '[DONE]' ? '[DONE]' : JSON.stringify(skeleton(JSON.parse(event.data)))}`;
}

/** The delta texts of a stream, per provider. */
function deltaTexts(provider: Provider, events: EventSourceMessage[]): string[] {
  switch (provider) {
    case 'openai-chat':
      return dataOf<ChatChunk>(events)
        .map((chunk) => chunk.choices[0]?.delta.content)
        .filter((text): text is string => typeof text === 'string' && text !== '');
    case 'openai-responses':
      return dataOf<ResponsesEvent>(events)
        .filter((item) => item.type === 'response.output_text.delta')
        .map((item) => item.delta ?? '');
    case 'anthropic':
      return dataOf<AnthropicEvent>(events)
        .filter((item) => item.type === 'content_block_delta')
        .map((item) => item.delta?.text ?? '');
    case 'gemini':
      return dataOf<GeminiChunk>(events).map((item) => item.candidates[0]?.content.parts[0]?.text ?? '');
    case 'gemini-interactions':
      return dataOf<InteractionsEvent>(events)
        .filter((item) => item.event_type === 'step.delta')
        .map((item) => item.delta?.text ?? '');
  }
}

const terminal: Record<Provider, (events: EventSourceMessage[]) => void> = {
  'openai-chat': (events) => {
    expect(events.at(-1)!.data).toBe('[DONE]');
    expect(dataOf<ChatChunk>(events).filter((chunk) => chunk.choices[0]?.finish_reason === 'stop')).toHaveLength(1);
  },
  'openai-responses': (events) => {
    const data = dataOf<ResponsesEvent>(events);
    expect(data.at(-1)!.type).toBe('response.completed');
    expect(data.map((item) => item.sequence_number)).toEqual(data.map((_, index) => index));
    expect(events.map((event) => event.event)).toEqual(data.map((item) => item.type));
    const deltas = deltaTexts('openai-responses', events).join('');
    expect(data.find((item) => item.type === 'response.output_text.done')!.text).toBe(deltas);
    expect(data.at(-1)!.response!.output[0]!.content[0]!.text).toBe(deltas);
  },
  anthropic: (events) => {
    expect(events.at(-1)!.event).toBe('message_stop');
    expect(events.map((event) => event.event)).toEqual(dataOf<AnthropicEvent>(events).map((item) => item.type));
  },
  gemini: (events) => {
    const data = dataOf<GeminiChunk>(events);
    expect(data.at(-1)!.candidates[0]!.finishReason).toBe('STOP');
    expect(data.slice(0, -1).every((item) => item.candidates[0]!.finishReason === undefined)).toBe(true);
  },
  'gemini-interactions': (events) => {
    expect(events.at(-1)!.data).toBe('[DONE]');
    const data = dataOf<InteractionsEvent>(events.slice(0, -1));
    expect(data.at(-1)!.interaction).toMatchObject({ status: 'completed', usage: { total_output_tokens: expect.any(Number) as unknown } });
    expect(events.slice(0, -1).map((event) => event.event)).toEqual(data.map((item) => item.event_type));
    expect(new Set(data.map((item) => item.event_id)).size).toBe(data.length);
  },
};

describe.each(PROVIDER_NAMES)('synthetic %s stream', (provider) => {
  it('is a valid, completed stream with one time-stamped delta per frame', async () => {
    const before = Date.now();
    const result = await synthetic(provider, { frames: 5, frame_interval_ms: 1, text_bytes: 64 });
    expect(result.status).toBe(200);
    expect(result.complete).toBe(true);
    const { events } = parseSse(result.body);
    terminal[provider](events);
    const texts = deltaTexts(provider, events);
    expect(texts).toHaveLength(5);
    const stamps = texts.map((text) => {
      expect(Buffer.byteLength(text)).toBeGreaterThanOrEqual(64);
      const match = /^t=(\d+\.\d{3});/.exec(text);
      expect(match).not.toBeNull();
      return Number(match![1]);
    });
    // Stamps are epoch milliseconds taken in send order (the clock's unit and order, not latency).
    expect([...stamps].sort((a, b) => a - b)).toEqual(stamps);
    expect(stamps[0]).toBeGreaterThan(before - 60_000);
    expect(stamps[0]).toBeLessThan(Date.now() + 60_000);
  });

  it('has only record shapes the recorded simple_text transcript has', async () => {
    const result = await synthetic(provider, { frames: 3, frame_interval_ms: 0 });
    const recorded = new Set(parseSse(transcript(provider, 'simple_text')).events.map(shape));
    const generated = parseSse(result.body).events.map(shape);
    expect(generated.filter((item) => !recorded.has(item))).toEqual([]);
  });

  it('takes the delivery options too (cut_after_bytes)', async () => {
    const id = await registerScenario(server.url, { responses: [{ synthetic: { frames: 3, frame_interval_ms: 0 }, cut_after_bytes: 40 }] });
    const request = providerRequest(provider, id);
    const cut = await exchange(server.url, request.path, request.body);
    expect(cut.body.length).toBe(40);
    expect(cut.complete).toBe(false);
  });
});

describe('synthetic details', () => {
  it('text is the bare stamp when text_bytes is absent', async () => {
    const result = await synthetic('anthropic', { frames: 2, frame_interval_ms: 0 });
    for (const text of deltaTexts('anthropic', parseSse(result.body).events)) expect(text).toMatch(/^t=\d+\.\d{3};$/);
  });

  it('Gemini records use CRLF framing only', async () => {
    const result = await synthetic('gemini', { frames: 3, frame_interval_ms: 0 });
    expect(result.body.toString()).not.toMatch(/(?<!\r)\n/);
    expect(result.body.toString().endsWith('\r\n\r\n')).toBe(true);
  });

  it('OpenAI chat sends usage (null on chunks, then a choices: [] chunk) only when include_usage was asked', async () => {
    const parse = (body: Buffer): ChatChunk[] => dataOf<ChatChunk>(parseSse(body).events);
    const withUsage = parse((await synthetic('openai-chat', { frames: 2, frame_interval_ms: 0 })).body);
    const without = parse((await synthetic('openai-chat', { frames: 2, frame_interval_ms: 0 }, { stream_options: undefined })).body);
    expect(withUsage.at(-1)!.choices).toEqual([]);
    expect(withUsage.at(-1)!.usage!.completion_tokens).toBeGreaterThan(0);
    expect(withUsage.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);
    expect(without.every((chunk) => !('usage' in chunk) && chunk.choices.length === 1)).toBe(true);
  });
});
