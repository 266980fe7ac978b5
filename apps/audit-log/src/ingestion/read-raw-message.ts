import { HEADERS, decodeTraceRecord, err, ok, parseStreamSubject, type HeaderLookup, type Result, type TraceRecordKind } from '@llm-stream/contract';
import type { TenantSettings } from '../config/tenant-settings.js';
import { redactText } from '../privacy/redact.js';
import type { IncomingRaw } from '../store/audit-repository.js';
import { MAX_SEQ, type UnstorableMessage } from './read-event-message.js';
import { traceIdOf } from './trace-id.js';

/**
 * The client's request, which the gateway records for API keys with `capture_prompts` (ClientRequestRecord):
 * `{"kind": "client.request", "raw_seq": n, "ts": ms, "body": <request JSON>}`. The audit log stores it as the
 * stream's prompt only for tenants in AUDIT_PROMPT_CAPTURE_TENANTS: prompt capture takes both switches.
 */
export const CLIENT_REQUEST_RECORD = 'client.request' satisfies TraceRecordKind;

/**
 * An LLM_RAW message as a raw record to store, redacted. A client request becomes a prompt for a tenant with
 * prompt capture on and `null` (nothing to store) otherwise: by default prompts are never stored.
 */
export function readRawMessage(
  subject: string,
  data: string,
  header: HeaderLookup,
  jsSeq: number,
  tenants: TenantSettings,
): Result<IncomingRaw | null, UnstorableMessage> {
  const parts = parseStreamSubject(subject);
  if (parts === null) return err({ code: 'not_a_trace_record', message: `not a raw trace subject: ${subject}` });
  const { tenant, streamId } = parts;
  const kindHeader = header(HEADERS.record);
  if (kindHeader === CLIENT_REQUEST_RECORD) {
    if (!tenants.capturesPrompts(tenant)) return ok(null);
    return readClientRequest(tenant, streamId, data, traceIdOf(header));
  }
  const decoded = decodeTraceRecord(header, data);
  // The codec's code, not its message: a JSON syntax error quotes the record.
  if (!decoded.ok) return err({ code: 'not_a_trace_record', message: decoded.error.code });
  const record = decoded.value;
  if (record.raw_seq > MAX_SEQ || ('attempt' in record && record.attempt > MAX_SEQ)) {
    return err({ code: 'not_a_trace_record', message: 'raw_seq and attempt must be at most 2^31 - 1' });
  }
  if (record.kind === 'stream.open' && (record.stream_id !== streamId || record.tenant !== tenant)) {
    return err({ code: 'not_a_trace_record', message: `stream.open of ${record.stream_id} on the subject of ${streamId}` });
  }
  // Stored as received: a frame's exact text, another record's JSON as the gateway wrote it.
  const { text, redacted } = redactText(data);
  return ok({
    type: 'record',
    tenant,
    streamId,
    attempt: 'attempt' in record ? record.attempt : 0,
    rawSeq: record.raw_seq,
    kind: record.kind === 'frame' && record.partial === true ? 'frame.partial' : record.kind,
    ts: record.ts,
    jsSeq,
    body: text,
    redacted,
    // Read when needed (a getter): the stream row takes the first one, most records are never asked.
    get traceId(): string | null {
      return traceIdOf(header);
    },
    ...(record.kind === 'stream.open' && { opened: { provider: record.provider, model: record.model, ...(record.route !== undefined && { route: record.route }), gatewayId: record.gateway_id } }),
  });
}

function readClientRequest(tenant: string, streamId: string, data: string, traceId: string | null): Result<IncomingRaw, UnstorableMessage> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return err({ code: 'not_a_trace_record', message: `${CLIENT_REQUEST_RECORD} record is not JSON` });
  }
  const record = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<string, unknown>;
  const ts = record['ts'];
  if (typeof ts !== 'number' || !Number.isSafeInteger(ts) || !('body' in record)) {
    return err({ code: 'not_a_trace_record', message: `${CLIENT_REQUEST_RECORD} record needs ts and body` });
  }
  return ok({ type: 'prompt', tenant, streamId, ts, prompt: redactText(JSON.stringify(record['body'])).text, traceId });
}
