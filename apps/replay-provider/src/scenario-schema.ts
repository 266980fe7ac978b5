import { isProviderName, ok, PROVIDERS } from '@llm-stream/contract';
import {
  fieldError,
  isObject,
  numberField,
  onlyKeys,
  path,
  requiredNumberField,
  type Checked,
  type JsonObject,
} from './json-fields.js';
import {
  SCENARIO_ID,
  type Delivery,
  type ScenarioDefinition,
  type ScenarioResponse,
  type SyntheticSpec,
  type TranscriptRef,
} from './scenario.js';
import { isValidCaseName, type TranscriptStore } from './transcript-store.js';

const HOUR_MS = 3_600_000;
const MAX_RESPONSES = 10_000;
const DEFAULT_STALL_PING_INTERVAL_MS = 1_000;
const MS = { min: 0, max: HOUR_MS, integer: false } as const;
const BYTES = { min: 0, max: 2 ** 31, integer: true } as const;

const DELIVERY_KEYS = [
  'chunk_bytes',
  'frame_delay_ms',
  'first_byte_delay_ms',
  'cut_after_bytes',
  'stall_after_frames',
  'stall_ping_interval_ms',
  'end',
] as const;
const ERROR_KEYS = ['status', 'body', 'headers', 'retry_after'];
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Validates a `POST /_replay/scenarios` body: `{ id?: "sc_…", responses: [ … ] }`. Every failure names the
 * JSON path of the field at fault. Transcripts are checked against the store so a typo fails at registration.
 */
export function parseScenario(body: unknown, transcripts: TranscriptStore): Checked<ScenarioDefinition> {
  if (!isObject(body)) return fieldError('', 'must be a JSON object {"responses": [...]}');
  const keys = onlyKeys(body, ['id', 'responses'], '');
  if (!keys.ok) return keys;
  const id = body['id'];
  if (id !== undefined && (typeof id !== 'string' || !SCENARIO_ID.test(id))) {
    return fieldError('id', `must match ${String(SCENARIO_ID)}`);
  }
  const list = body['responses'];
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_RESPONSES) {
    return fieldError('responses', `must be an array of 1 to ${MAX_RESPONSES} responses`);
  }
  const responses: ScenarioResponse[] = [];
  for (const [index, item] of (list as unknown[]).entries()) {
    const response = parseResponse(item, `responses[${index}]`, transcripts);
    if (!response.ok) return response;
    responses.push(response.value);
  }
  const [first, ...rest] = responses;
  if (first === undefined) return fieldError('responses', 'must not be empty');
  return ok({ id: id ?? null, responses: [first, ...rest] });
}

function parseResponse(item: unknown, at: string, transcripts: TranscriptStore): Checked<ScenarioResponse> {
  if (!isObject(item)) return fieldError(at, 'must be an object');
  const kinds = ['status', 'transcript', 'synthetic'].filter((key) => key in item);
  if (kinds.length !== 1) {
    return fieldError(at, 'must have exactly one of "status" (HTTP error), "transcript" or "synthetic"');
  }
  if ('status' in item) return parseErrorResponse(item, at);
  const delivery = parseDelivery(item, at);
  if (!delivery.ok) return delivery;
  if ('transcript' in item) {
    const keys = onlyKeys(item, ['transcript', ...DELIVERY_KEYS], at);
    if (!keys.ok) return keys;
    const transcript = parseTranscriptRef(item['transcript'], path(at, 'transcript'), transcripts);
    if (!transcript.ok) return transcript;
    return ok({ kind: 'transcript', transcript: transcript.value, delivery: delivery.value });
  }
  const keys = onlyKeys(item, ['synthetic', ...DELIVERY_KEYS], at);
  if (!keys.ok) return keys;
  const synthetic = parseSynthetic(item['synthetic'], path(at, 'synthetic'));
  if (!synthetic.ok) return synthetic;
  return ok({ kind: 'synthetic', synthetic: synthetic.value, delivery: delivery.value });
}

function parseErrorResponse(item: JsonObject, at: string): Checked<ScenarioResponse> {
  const keys = onlyKeys(item, ERROR_KEYS, at);
  if (!keys.ok) return keys;
  const status = requiredNumberField(item, 'status', at, { min: 200, max: 599, integer: true });
  if (!status.ok) return status;
  const rawBody = item['body'];
  if (typeof rawBody !== 'string' && (typeof rawBody !== 'object' || rawBody === null)) {
    return fieldError(path(at, 'body'), 'must be a string (sent as is) or a JSON object or array (serialized)');
  }
  const body = typeof rawBody === 'string' ? rawBody : JSON.stringify(rawBody);
  const headers: Record<string, string> = { 'content-type': isJson(body) ? 'application/json' : 'text/plain; charset=utf-8' };
  const retryAfter = numberField(item, 'retry_after', at, { min: 0, max: 31_536_000, integer: true }, null);
  if (!retryAfter.ok) return retryAfter;
  if (retryAfter.value !== null) headers['retry-after'] = String(retryAfter.value);
  const extra = item['headers'];
  if (extra !== undefined) {
    if (!isObject(extra)) return fieldError(path(at, 'headers'), 'must be an object of header names to string values');
    for (const [name, value] of Object.entries(extra)) {
      if (!HEADER_NAME.test(name) || typeof value !== 'string' || /[\r\n]/.test(value)) {
        return fieldError(`${path(at, 'headers')}.${name}`, 'must be a valid header name with a one-line string value');
      }
      headers[name.toLowerCase()] = value;
    }
  }
  return ok({ kind: 'error', status: status.value, body, headers });
}

function parseDelivery(item: JsonObject, at: string): Checked<Delivery> {
  const chunkBytes = numberField(item, 'chunk_bytes', at, { min: 1, max: 16 * 1024 * 1024, integer: true }, null);
  if (!chunkBytes.ok) return chunkBytes;
  const frameDelayMs = numberField(item, 'frame_delay_ms', at, MS, 0);
  if (!frameDelayMs.ok) return frameDelayMs;
  const firstByteDelayMs = numberField(item, 'first_byte_delay_ms', at, MS, 0);
  if (!firstByteDelayMs.ok) return firstByteDelayMs;
  const cutAfterBytes = numberField(item, 'cut_after_bytes', at, BYTES, null);
  if (!cutAfterBytes.ok) return cutAfterBytes;
  const stallAfterFrames = numberField(item, 'stall_after_frames', at, { min: 0, max: 10_000_000, integer: true }, null);
  if (!stallAfterFrames.ok) return stallAfterFrames;
  const pingRule = { min: 1, max: HOUR_MS, integer: false };
  const stallPingIntervalMs = numberField(item, 'stall_ping_interval_ms', at, pingRule, DEFAULT_STALL_PING_INTERVAL_MS);
  if (!stallPingIntervalMs.ok) return stallPingIntervalMs;
  if (item['stall_ping_interval_ms'] !== undefined && stallAfterFrames.value === null) {
    return fieldError(path(at, 'stall_ping_interval_ms'), 'needs stall_after_frames');
  }
  const end = item['end'] ?? 'close';
  if (end !== 'close' && end !== 'hang') return fieldError(path(at, 'end'), 'must be "close" or "hang"');
  return ok({
    chunkBytes: chunkBytes.value,
    frameDelayMs: frameDelayMs.value,
    firstByteDelayMs: firstByteDelayMs.value,
    cutAfterBytes: cutAfterBytes.value,
    stallAfterFrames: stallAfterFrames.value,
    stallPingIntervalMs: stallPingIntervalMs.value,
    end,
  });
}

function parseTranscriptRef(value: unknown, at: string, transcripts: TranscriptStore): Checked<TranscriptRef> {
  if (typeof value === 'string') {
    if (!isValidCaseName(value)) return fieldError(at, `is not a valid case name: ${JSON.stringify(value)}`);
    // The provider is the endpoint's, known only per request: the case must exist for at least one provider.
    if (!PROVIDERS.some((provider) => transcripts.exists(provider, value))) {
      return fieldError(at, `no transcript named ${JSON.stringify(value)} for any provider`);
    }
    return ok({ provider: null, caseName: value });
  }
  if (!isObject(value)) return fieldError(at, 'must be a case name or {"provider": …, "case": …}');
  const keys = onlyKeys(value, ['provider', 'case'], at);
  if (!keys.ok) return keys;
  const provider = value['provider'];
  if (!isProviderName(provider)) return fieldError(path(at, 'provider'), `must be one of ${PROVIDERS.join(', ')}`);
  const caseName = value['case'];
  if (typeof caseName !== 'string' || !transcripts.exists(provider, caseName)) {
    return fieldError(path(at, 'case'), `no transcript ${provider}/${JSON.stringify(caseName)}`);
  }
  return ok({ provider, caseName });
}

function parseSynthetic(value: unknown, at: string): Checked<SyntheticSpec> {
  if (!isObject(value)) return fieldError(at, 'must be an object {"frames": n, "frame_interval_ms": ms}');
  const keys = onlyKeys(value, ['frames', 'frame_interval_ms', 'text_bytes'], at);
  if (!keys.ok) return keys;
  const frames = requiredNumberField(value, 'frames', at, { min: 1, max: 10_000_000, integer: true });
  if (!frames.ok) return frames;
  const frameIntervalMs = requiredNumberField(value, 'frame_interval_ms', at, MS);
  if (!frameIntervalMs.ok) return frameIntervalMs;
  const textBytes = numberField(value, 'text_bytes', at, { min: 0, max: 1024 * 1024, integer: true }, 0);
  if (!textBytes.ok) return textBytes;
  return ok({ frames: frames.value, frameIntervalMs: frameIntervalMs.value, textBytes: textBytes.value });
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
