import type { IncomingMessage, ServerResponse } from 'node:http';
import { assertNever, type ProviderName } from '@llm-stream/contract';
import { epochMs } from './clock.js';
import { deliver } from './fault-writer.js';
import { fixedFrame, type Frame } from './frame.js';
import { parseJsonBody, sendBody, type ParsedBody } from './http-io.js';
import { providerError, type ProviderErrorKind } from './provider-errors.js';
import { keepAliveBytes, presentedApiKey, requestIdHeaders, streamHeaders, type PathStyle } from './providers.js';
import type { RequestLog } from './request-log.js';
import { scenarioIdOfModel, type Delivery, type ScenarioResponse } from './scenario.js';
import type { ScenarioStore } from './scenario-store.js';
import type { ServedLog } from './served-log.js';
import { splitRecords } from './sse-records.js';
import { syntheticFrames } from './synthetic/synthetic-frames.js';
import type { TranscriptStore } from './transcript-store.js';

export interface ProviderDeps {
  readonly transcripts: TranscriptStore;
  readonly scenarios: ScenarioStore;
  readonly requestLog: RequestLog;
  readonly requiredApiKey: string | null;
  /** Off (null) unless REPLAY_SERVED_LOG is set. */
  readonly servedLog: ServedLog | null;
}

export interface ProviderCall {
  readonly provider: ProviderName;
  readonly style: PathStyle;
  /** Gemini's model (or an Azure deployment) from the path; null for the providers that carry it in the body. */
  readonly pathModel: string | null;
  readonly pathname: string;
  readonly query: URLSearchParams;
  readonly body: Buffer;
}

/** A plain transcript request: recorded bytes, one write per record, clean end. */
const PLAIN: Delivery = {
  chunkBytes: null,
  frameDelayMs: 0,
  firstByteDelayMs: 0,
  cutAfterBytes: null,
  stallAfterFrames: null,
  stallPingIntervalMs: 1_000,
  end: 'close',
};

/**
 * Serves one provider request the way that provider would: auth check, then the transcript or scenario
 * response the model name selects. Every request is recorded in the request log, including how it ended.
 */
export async function handleProviderCall(
  request: IncomingMessage,
  response: ServerResponse,
  call: ProviderCall,
  deps: ProviderDeps,
): Promise<void> {
  const parsed = parseJsonBody(call.body);
  const model = call.pathModel ?? bodyModel(parsed);
  const scenario = model === null ? null : scenarioIdOfModel(model);
  const entry = deps.requestLog.start({
    provider: call.provider,
    model,
    scenario,
    method: request.method ?? 'POST',
    path: call.pathname,
    query: queryObject(call.query),
    headers: request.headers,
    body: loggedBody(parsed),
  });
  const abort = new AbortController();
  let cutByServer = false;
  response.on('finish', () => (entry.finished_at = epochMs()));
  response.on('close', () => {
    if (!response.writableFinished && !cutByServer) {
      entry.client_aborted = true;
      entry.aborted_at = epochMs();
    } else if (cutByServer) {
      entry.finished_at = epochMs();
    }
    abort.abort();
  });

  const fail = (kind: ProviderErrorKind, message: string): void => {
    const error = providerError(call.provider, kind, message, entry.id);
    entry.status = error.status;
    entry.served = `error:${error.status}`;
    sendBody(response, error.status, { 'content-type': error.contentType, ...requestIdHeaders(call.provider, entry.id) }, error.body);
    deps.servedLog?.append(entry, 'error', Buffer.from(error.body));
  };

  const presented = presentedApiKey(call.provider, call.style, request.headers, call.query);
  if (deps.requiredApiKey !== null && presented !== deps.requiredApiKey) {
    fail('unauthorized', presented === null ? 'No API key provided.' : 'Incorrect API key provided.');
    return;
  }
  if (parsed.kind === 'invalid') {
    fail('invalid_request', 'We could not parse the JSON body of your request.');
    return;
  }
  if (call.style === 'azure' && (call.query.get('api-version') ?? '') === '') {
    fail('invalid_request', 'Missing required query parameter: api-version.');
    return;
  }
  if (call.provider === 'gemini' && call.query.get('alt') !== 'sse') {
    fail('invalid_request', 'The replay provider serves streamGenerateContent with alt=sse only.');
    return;
  }
  if (model === null) {
    fail('invalid_request', 'You must provide a model parameter.');
    return;
  }

  let planned: ScenarioResponse;
  let origin = '';
  if (scenario === null) {
    planned = { kind: 'transcript', transcript: { provider: null, caseName: model }, delivery: PLAIN };
  } else {
    const next = deps.scenarios.next(scenario);
    if (next === null) {
      fail('not_found', `The replay scenario ${JSON.stringify(scenario)} is not registered.`);
      return;
    }
    planned = next.response;
    origin = `, planned by scenario ${scenario} response ${next.index}`;
  }

  let frames: Iterable<Frame>;
  switch (planned.kind) {
    case 'error':
      entry.status = planned.status;
      entry.served = `error:${planned.status}`;
      sendBody(response, planned.status, { ...requestIdHeaders(call.provider, entry.id), ...planned.headers }, planned.body);
      deps.servedLog?.append(entry, 'error', Buffer.from(planned.body));
      return;
    case 'transcript': {
      const provider = planned.transcript.provider ?? call.provider;
      const bytes = await deps.transcripts.read(provider, planned.transcript.caseName);
      if (bytes === null) {
        fail('not_found', `The model \`${model}\` does not exist (no transcript ${provider}/${planned.transcript.caseName}${origin}).`);
        return;
      }
      entry.served = `transcript:${provider}/${planned.transcript.caseName}`;
      frames = splitRecords(bytes).map(fixedFrame);
      break;
    }
    case 'synthetic':
      entry.served = `synthetic:${call.provider}`;
      frames = syntheticFrames(call.provider, planned.synthetic, parsed.kind === 'json' ? parsed.value : null);
      break;
    default:
      assertNever(planned, 'scenario response');
  }

  entry.status = 200;
  response.writeHead(200, streamHeaders(call.provider, entry.id));
  response.flushHeaders();
  const written: Buffer[] = [];
  const servedLog = deps.servedLog;
  const hooks = {
    onCut: () => (cutByServer = true),
    ...(servedLog === null ? {} : { onWrite: (bytes: Buffer) => written.push(bytes) }),
  };
  const outcome = await deliver(response, frames, planned.delivery, keepAliveBytes(call.provider), abort.signal, hooks);
  servedLog?.append(entry, outcome, Buffer.concat(written));
}

function bodyModel(parsed: ParsedBody): string | null {
  if (parsed.kind !== 'json' || typeof parsed.value !== 'object' || parsed.value === null) return null;
  const model = (parsed.value as Record<string, unknown>)['model'];
  return typeof model === 'string' ? model : null;
}

function loggedBody(parsed: ParsedBody): unknown {
  switch (parsed.kind) {
    case 'empty':
      return null;
    case 'json':
      return parsed.value;
    case 'invalid':
      return parsed.text;
    default:
      return assertNever(parsed, 'parsed body');
  }
}

function queryObject(query: URLSearchParams): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {};
  for (const key of new Set(query.keys())) {
    const values = query.getAll(key);
    result[key] = values.length === 1 ? (values[0] ?? '') : values;
  }
  return result;
}
