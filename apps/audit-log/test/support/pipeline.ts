import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { storedMessageCount } from '@llm-stream/pipeline';
import { STREAM_NAMES, eventsSubject, rawSubject, type ContractEvent, type ProviderName } from '@llm-stream/contract';
import { collectSse, startOtlpCollector, type OtlpCollector } from '@llm-stream/testing';
import { startAuthorizedNats, type AuthorizedNats } from './authorized-nats.js';
import { openJetStream, type JetStreamSession } from './jetstream.js';
import { startGateway, startNormalizer, startReplayProvider, type Service } from './services.js';
import { API_KEYS } from './tenants.js';

/**
 * NATS (authorization on, as shipped), the replay provider, a normalizer and a gateway, as processes, each service
 * as its own NATS user; the audit log is the test's to start (with {@link Pipeline.auditEnv}).
 */
export interface Pipeline {
  readonly nats: AuthorizedNats;
  /** The test's own JetStream session, as the provisioner. */
  readonly jetstream: JetStreamSession;
  readonly replay: Service;
  readonly normalizer: Service;
  readonly gateway: Service;
  /** Receives every service's spans (TRACE_EXPORTER=otlp in commonEnv). */
  readonly collector: OtlpCollector;
  /** A temp dir for the test's files (databases, span files), removed on stop. */
  readonly dir: string;
  /** Environment every service of the pipeline shares (keys, span export to the collector); no NATS user. */
  readonly commonEnv: Readonly<Record<string, string>>;
  /** The audit log's: {@link commonEnv} with its NATS URL, user and password. */
  readonly auditEnv: Readonly<Record<string, string>>;
  stop(): Promise<void>;
}

/** Extra settings of the gateway and the replay provider (provider keys, a transcripts folder of the test's own). */
export interface PipelineOptions {
  readonly gatewayEnv?: Readonly<Record<string, string>>;
  readonly replayEnv?: Readonly<Record<string, string>>;
}

export async function startPipeline(options: PipelineOptions = {}): Promise<Pipeline> {
  const dir = mkdtempSync(join(tmpdir(), 'audit-pipeline-'));
  const nats = await startAuthorizedNats();
  const jetstream = await openJetStream(await nats.connectAs('provisioner'));
  const collector = await startOtlpCollector();
  const commonEnv = {
    GATEWAY_API_KEYS: API_KEYS,
    TRACE_EXPORTER: 'otlp',
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: collector.tracesUrl,
    OTEL_BSP_SCHEDULE_DELAY: '100',
  };
  const replay = await startReplayProvider(options.replayEnv);
  const normalizer = await startNormalizer({ ...commonEnv, ...nats.serviceEnv('normalizer') });
  const gateway = await startGateway({
    ...commonEnv,
    ...nats.serviceEnv('gateway'),
    OPENAI_BASE_URL: replay.url,
    ANTHROPIC_BASE_URL: replay.url,
    GEMINI_BASE_URL: replay.url,
    // One attempt, as `llm-stream normalize` records it: the two paths must yield the same events.
    UPSTREAM_MAX_ATTEMPTS: '1',
    ...options.gatewayEnv,
  });
  return {
    nats,
    jetstream,
    replay,
    normalizer,
    gateway,
    collector,
    dir,
    commonEnv,
    auditEnv: { ...commonEnv, ...nats.serviceEnv('audit-log') },
    stop: async () => {
      await Promise.all([gateway.stop(), normalizer.stop(), replay.stop()]);
      await jetstream.close();
      await nats.stop();
      await collector.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The provider's own request for a model (the replay provider picks the transcript by model name). */
export function providerRequest(provider: ProviderName, model: string): Record<string, unknown> {
  switch (provider) {
    case 'gemini':
      return { model, contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };
    case 'openai-responses':
    case 'gemini-interactions':
      return { model, input: 'hi' };
    case 'openai-chat':
    case 'anthropic':
      return { model, max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] };
  }
}

/** A stream through the gateway, read to its end: its id, trace id (traceparent sent) and the events the client saw. */
export interface ClientStream {
  readonly streamId: string;
  readonly events: readonly ContractEvent[];
}

export async function streamThroughGateway(gatewayUrl: string, key: string, provider: ProviderName, model: string, timeoutMs = 60_000): Promise<ClientStream> {
  const response = await fetch(`${gatewayUrl}/v1/streams/${provider}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(providerRequest(provider, model)),
  });
  if (response.status !== 200) throw new Error(`gateway answered ${String(response.status)}: ${await response.text()}`);
  const events = (await collectSse(response, { timeoutMs })).map((event) => JSON.parse(event.data) as ContractEvent);
  const streamId = events[0]?.stream_id;
  if (streamId === undefined) throw new Error('the gateway sent no event');
  return { streamId, events };
}

/** Runs `work` over `items` with at most `concurrency` at once, keeping the order of results. */
export async function mapConcurrently<T, R>(items: readonly T[], concurrency: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index] as T);
    }
  });
  await Promise.all(lanes);
  return results;
}

/**
 * The audit log has stored the stream (of the key's tenant) in full: it has ended and the audit log holds every
 * event and raw record JetStream holds of it (ended alone is not enough: raw records may still be arriving).
 */
export async function storedInFull(pipeline: Pipeline, auditUrl: string, key: string, tenant: string, streamId: string): Promise<boolean> {
  const response = await fetch(`${auditUrl}/v1/streams/${streamId}`, { headers: { authorization: `Bearer ${key}` } });
  if (response.status !== 200) return false;
  const { stream } = (await response.json()) as { stream: { status: string; event_count: number; raw_count: number } };
  if (stream.status === 'running') return false;
  const { jsm } = pipeline.jetstream;
  return (
    stream.event_count === (await storedMessageCount(jsm, STREAM_NAMES.events, eventsSubject(tenant, streamId))) &&
    stream.raw_count === (await storedMessageCount(jsm, STREAM_NAMES.raw, rawSubject(tenant, streamId)))
  );
}
