import { isProviderName, type ProviderName } from '../events/provider.js';
import { isValidRouteName } from '../events/route-name.js';
import { HEADERS, rawMsgId } from '../nats/subjects.js';
import { jsonSyntaxProblem } from '../json-syntax-problem.js';
import { err, ok, type Result } from '../result.js';
import { ATTEMPT_END_REASONS, GATEWAY_SHUTDOWN_REASONS, TRACE_RECORD_KINDS, type TraceRecord, type TraceRecordKind } from './trace-record.js';

/** The stream a record belongs to, repeated in every message's headers so consumers can route cheaply. */
export interface TraceStreamInfo {
  readonly stream_id: string;
  readonly tenant: string;
  readonly provider: ProviderName;
  readonly model: string;
}

/** A message ready for any transport: header pairs and a UTF-8 body. */
export interface EncodedMessage {
  readonly headers: Readonly<Record<string, string>>;
  readonly data: string;
}

export type HeaderLookup = (name: string) => string | undefined;

export interface TraceCodecError {
  readonly code: 'missing_header' | 'bad_header' | 'bad_body';
  readonly message: string;
}

/**
 * Frames travel as their exact text (byte-exact trace, no JSON escaping on the hot path) with the record's
 * fields in headers; every other record travels as JSON.
 */
export function encodeTraceRecord(
  record: TraceRecord,
  stream: TraceStreamInfo,
  /** Headers every record of the stream carries besides its own, e.g. the W3C trace context. */
  streamHeaders: Readonly<Record<string, string>> = {},
): EncodedMessage {
  const headers: Record<string, string> = {
    ...streamHeaders,
    [HEADERS.msgId]: rawMsgId(stream.stream_id, record.raw_seq),
    [HEADERS.streamId]: stream.stream_id,
    [HEADERS.tenant]: stream.tenant,
    [HEADERS.provider]: stream.provider,
    [HEADERS.model]: stream.model,
    [HEADERS.record]: record.kind,
    [HEADERS.rawSeq]: String(record.raw_seq),
    [HEADERS.ts]: String(record.ts),
  };
  if ('attempt' in record) headers[HEADERS.attempt] = String(record.attempt);
  if (record.kind === 'frame') {
    if (record.partial) headers[HEADERS.record] = 'frame.partial';
    return { headers, data: record.text };
  }
  return { headers, data: JSON.stringify(record) };
}

/** Inverse of {@link encodeTraceRecord}; any malformed message is a typed error, never an exception. */
export function decodeTraceRecord(header: HeaderLookup, data: string): Result<TraceRecord, TraceCodecError> {
  const kindHeader = header(HEADERS.record);
  if (kindHeader === undefined) return err({ code: 'missing_header', message: `missing ${HEADERS.record} header` });
  if (kindHeader === 'frame' || kindHeader === 'frame.partial') {
    const rawSeq = intHeader(header, HEADERS.rawSeq);
    const ts = intHeader(header, HEADERS.ts);
    const attempt = intHeader(header, HEADERS.attempt);
    if (!rawSeq.ok) return rawSeq;
    if (!ts.ok) return ts;
    if (!attempt.ok) return attempt;
    const frame = { kind: 'frame', raw_seq: rawSeq.value, ts: ts.value, attempt: attempt.value, text: data } as const;
    return ok(kindHeader === 'frame.partial' ? { ...frame, partial: true } : frame);
  }
  if (!isJsonRecordKind(kindHeader)) {
    return err({ code: 'bad_header', message: `unknown ${HEADERS.record} header: ${kindHeader}` });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch (error) {
    return err({ code: 'bad_body', message: `trace record body is not JSON: ${jsonSyntaxProblem(error, data)}` });
  }
  return validateRecord(parsed, kindHeader);
}

/** Kinds that travel as a JSON body (frames travel as their text). */
type JsonRecordKind = Exclude<TraceRecordKind, 'frame'>;

function isJsonRecordKind(value: unknown): value is JsonRecordKind {
  return typeof value === 'string' && value !== 'frame' && (TRACE_RECORD_KINDS as readonly string[]).includes(value);
}

function intHeader(header: HeaderLookup, name: string): Result<number, TraceCodecError> {
  const value = header(name);
  if (value === undefined) return err({ code: 'missing_header', message: `missing ${name} header` });
  // Digits only: Number() alone would read '' as 0 and accept ' 7', '0x10' and '1e3'.
  const parsed = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(parsed)) {
    return err({ code: 'bad_header', message: `${name} header is not a non-negative integer: ${value}` });
  }
  return ok(parsed);
}

type FieldCheck = (value: unknown) => boolean;
const isInt: FieldCheck = (value) => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
const isString: FieldCheck = (value) => typeof value === 'string';

/** Required fields per record kind (besides kind, raw_seq and ts). */
const REQUIRED: Readonly<Record<JsonRecordKind, Readonly<Record<string, FieldCheck>>>> = {
  'stream.open': {
    stream_id: isString,
    tenant: isString,
    provider: isProviderName,
    model: isString,
    gateway_id: isString,
    max_attempts: isInt,
  },
  'client.request': { body: (value) => value !== undefined },
  'attempt.start': { attempt: isInt },
  'upstream.response': { attempt: isInt, status: isInt },
  'attempt.end': {
    attempt: isInt,
    reason: (value) => typeof value === 'string' && (ATTEMPT_END_REASONS as readonly string[]).includes(value),
  },
  'client.cancel': { reason: (value) => value === 'client_request' || value === 'client_disconnected' },
  'gateway.lost': { gateway_id: isString },
  'gateway.shutdown': { gateway_id: isString },
  heartbeat: {},
};

/** Optional fields per record kind: absent is fine, present must be well-typed. */
const OPTIONAL: Readonly<Partial<Record<JsonRecordKind, Readonly<Record<string, FieldCheck>>>>> = {
  'stream.open': { route: isValidRouteName, adapters: (value) => isInt(value) && (value as number) >= 1 },
  'upstream.response': { content_type: isString, retry_after_ms: isInt, request_id: isString, body: isString },
  'attempt.end': { detail: isString },
  'gateway.shutdown': { reason: (value) => typeof value === 'string' && (GATEWAY_SHUTDOWN_REASONS as readonly string[]).includes(value) },
};

function validateRecord(value: unknown, headerKind: JsonRecordKind): Result<TraceRecord, TraceCodecError> {
  if (typeof value !== 'object' || value === null) return err({ code: 'bad_body', message: 'trace record is not an object' });
  const record = value as Record<string, unknown>;
  const kind = record['kind'];
  if (!isJsonRecordKind(kind)) {
    return err({ code: 'bad_body', message: `unknown trace record kind: ${String(kind)}` });
  }
  // Consumers route on the header without parsing the body; a body of another kind would be misrouted.
  if (kind !== headerKind) {
    return err({ code: 'bad_body', message: `trace record body of kind ${kind} under ${HEADERS.record} ${headerKind}` });
  }
  const checks = { raw_seq: isInt, ts: isInt, ...REQUIRED[kind] };
  for (const [field, check] of Object.entries(checks)) {
    if (!check(record[field])) return err({ code: 'bad_body', message: `${kind} record has a missing or invalid ${field}` });
  }
  for (const [field, check] of Object.entries(OPTIONAL[kind] ?? {})) {
    if (Object.hasOwn(record, field) && !check(record[field])) {
      return err({ code: 'bad_body', message: `${kind} record has a missing or invalid ${field}` });
    }
  }
  return ok(record as unknown as TraceRecord);
}
