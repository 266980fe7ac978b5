import { startOtlpCollector, waitFor, type CollectedSpan, type OtlpCollector } from '@llm-stream/testing';
import { PROVIDER_KEY_CANARY } from './support/api-keys.js';
import { terminalOf, textOf } from './support/event-checks.js';
import { postStream, type GatewayReply } from './support/gateway-client.js';
import { WireTap } from './support/nats-taps.js';
import { startPipeline, type Pipeline } from './support/pipeline.js';
import { readRawTrace } from './support/raw-trace.js';
import { registerScenario } from './support/replay-control.js';
import { ECHOES_KEY_CASE } from './support/transcripts.js';

const CLIENT_TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';

describe('observability and secrets', () => {
  let pipeline: Pipeline;
  let tap: WireTap;
  let collector: OtlpCollector;
  const streams: Record<string, GatewayReply> = {};

  beforeAll(async () => {
    // The services' real OTLP/HTTP exporter, sending to a collector in this test.
    collector = await startOtlpCollector();
    const tracing = { TRACE_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: collector.tracesUrl, OTEL_BSP_SCHEDULE_DELAY: '100' };
    pipeline = await startPipeline({ gatewayEnv: tracing, normalizerEnv: tracing });
    tap = new WireTap(pipeline.nc);
    const anthropic = (model: string): Record<string, unknown> => ({ model, max_tokens: 64, messages: [] });
    const echoedKey = {
      error: {
        message: `Incorrect API key provided: ${PROVIDER_KEY_CANARY}.`,
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      },
    };
    const rejected = await registerScenario(pipeline.replay.url, { responses: [{ status: 401, body: echoedKey }] });
    const retried = await registerScenario(pipeline.replay.url, {
      responses: [
        { status: 429, body: { type: 'error', error: { type: 'rate_limit_error', message: 'Slow down' } } },
        { transcript: 'tool_fragmented_json' },
      ],
    });
    streams['traced'] = await postStream(pipeline.gatewayUrl, 'anthropic', anthropic('simple_text'), {
      headers: { traceparent: `00-${CLIENT_TRACE_ID}-00f067aa0ba902b7-01` },
    });
    streams['echoed-in-error'] = await postStream(pipeline.gatewayUrl, 'openai-chat', { model: `scenario:${rejected}`, messages: [] });
    streams['echoed-in-text'] = await postStream(pipeline.gatewayUrl, 'anthropic', anthropic(ECHOES_KEY_CASE));
    streams['retried'] = await postStream(pipeline.gatewayUrl, 'anthropic', anthropic(`scenario:${retried}`));
    streams['gemini'] = await postStream(pipeline.gatewayUrl, 'gemini', { model: 'simple_text', contents: [] });
    for (const reply of Object.values(streams)) await pipeline.acmeEvents.waitForTerminal(reply.streamId!);
  });

  afterAll(async () => {
    tap.close();
    await pipeline.stop();
    await collector.stop();
  });

  const streamIds = (): string[] => Object.values(streams).map((reply) => reply.streamId!);

  describe('one trace per stream across the gateway and the normalizer', () => {
    /** The gateway's and the normalizer's span of a stream, once both are exported. */
    async function spansOf(streamId: string): Promise<{ gateway: CollectedSpan; normalizer: CollectedSpan }> {
      return waitFor(
        () => {
          const find = (service: string): CollectedSpan | undefined =>
            collector.spans().find((span) => span.service === service && span.attributes['llm.stream_id'] === streamId);
          const gateway = find('gateway');
          const normalizer = find('normalizer');
          return gateway && normalizer ? { gateway, normalizer } : undefined;
        },
        { timeoutMs: 10_000, description: `the spans of ${streamId} from both services` },
      );
    }

    it('has the same trace id in both services, the normalizer span a child of the gateway span, tagged with stream_id, provider and model', async () => {
      for (const reply of Object.values(streams)) {
        const { gateway, normalizer } = await spansOf(reply.streamId!);
        const start = reply.events[0]!;
        expect(start.type).toBe('stream.start');
        const tags = {
          'llm.stream_id': reply.streamId,
          'llm.provider': 'provider' in start ? start.provider : '',
          'llm.model': 'model' in start ? start.model : '',
        };
        expect(gateway).toMatchObject({ service: 'gateway', attributes: tags });
        expect(normalizer).toMatchObject({
          service: 'normalizer',
          traceId: gateway.traceId,
          parentSpanId: gateway.spanId,
          attributes: tags,
        });
      }
    });

    it("continues the HTTP client's W3C trace context", async () => {
      const { gateway } = await spansOf(streams['traced']!.streamId!);
      expect(gateway.traceId).toBe(CLIENT_TRACE_ID);
    });

    it("carries the stream's trace context in the headers of every raw and event message on NATS", async () => {
      for (const streamId of streamIds()) {
        const { gateway } = await spansOf(streamId);
        const messages = tap.messages.filter(
          (message) => message.subject.endsWith(`.${streamId}`) && !message.subject.startsWith('llm.control.'),
        );
        expect(messages.length).toBeGreaterThan(3);
        for (const message of messages)
          expect(message.headers).toMatch(new RegExp(`^traceparent: 00-${gateway.traceId}-[0-9a-f]{16}-0[01]$`, 'm'));
      }
    });
  });

  describe('log lines', () => {
    it('about a stream carry its stream_id and its trace_id, in both services', async () => {
      const traceOf = new Map<string, string>();
      for (const streamId of streamIds()) traceOf.set(streamId, (await spansOf(streamId)).gateway.traceId);
      const services = pipeline.services().filter((service) => service.name !== 'replay-provider');
      let checked = 0;
      for (const service of services) {
        for (const line of service.process.lines) {
          const mentioned = streamIds().find((streamId) => line.includes(streamId));
          if (mentioned === undefined) continue;
          checked += 1;
          const entry = JSON.parse(line) as { stream_id?: string; trace_id?: string };
          expect({ line, stream_id: entry.stream_id, trace_id: entry.trace_id }).toStrictEqual({
            line,
            stream_id: mentioned,
            trace_id: traceOf.get(mentioned),
          });
        }
      }
      expect(checked).toBeGreaterThanOrEqual(streamIds().length * 3);

      async function spansOf(streamId: string): Promise<{ gateway: CollectedSpan }> {
        const gateway = await collector.waitForSpan((span) => span.service === 'gateway' && span.attributes['llm.stream_id'] === streamId);
        return { gateway };
      }
    });
  });

  describe('the provider key', () => {
    it('was sent upstream and echoed back by the provider (so the checks below can fail)', () => {
      expect(terminalOf(streams['echoed-in-error']!.events)).toMatchObject({ type: 'stream.error', error: { category: 'authentication' } });
      expect(textOf(streams['echoed-in-text']!.events)).toBe('Your key is [redacted], keep it safe.');
    });

    it('never appears in a NATS message (subject, headers or payload) under llm.>', async () => {
      expect(tap.messages.length).toBeGreaterThan(50);
      expect(tap.containing(PROVIDER_KEY_CANARY)).toStrictEqual([]);
      // Nor in the stored raw traces (what the audit log reads).
      for (const streamId of streamIds()) {
        const trace = await readRawTrace(pipeline.nc, pipeline.jsm, 'acme', streamId);
        expect(JSON.stringify(trace)).not.toContain(PROVIDER_KEY_CANARY);
      }
    });

    it('never appears in a log line of the gateway or the normalizer', () => {
      const services = pipeline.services().filter((service) => service.name !== 'replay-provider');
      const lines = services.flatMap((service) => service.process.lines);
      expect(lines.length).toBeGreaterThan(20);
      expect(lines.filter((line) => line.includes(PROVIDER_KEY_CANARY))).toStrictEqual([]);
    });
  });

  it('serves Prometheus metrics on both services', async () => {
    const gateway = await (await fetch(new URL('/metrics', pipeline.gatewayUrl))).text();
    const normalizer = await (await fetch(new URL('/metrics', pipeline.normalizers[0]!.url))).text();
    expect(gateway).toMatch(/^llm_gateway_streams_started_total\{provider="anthropic",route="anthropic"\} 3$/m);
    expect(gateway).toMatch(/^llm_gateway_retries_total\{provider="anthropic",route="anthropic"\} 1$/m);
    // Each created stream's first delta, once.
    expect(gateway).toMatch(/^llm_gateway_time_to_first_delta_seconds_count\{provider="anthropic",route="anthropic"\} 3$/m);
    expect(normalizer).toMatch(/^llm_streams_total\{provider="anthropic",status="completed",error_category=""\} 3$/m);
    expect(normalizer).toMatch(/^llm_events_published_total\{type="stream.start"\} 5$/m);
  });
});
