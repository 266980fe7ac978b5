import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { normalizeTranscript } from '@llm-stream/adapters';
import { encodeEventMessage } from '@llm-stream/pipeline';
import { encodeTraceRecord, type ContractEvent, type ProviderName, type TraceRecord } from '@llm-stream/contract';
import { transcriptsDir } from '@llm-stream/testing';
import { TenantSettings } from '../../src/config/tenant-settings.js';
import { readEventMessage } from '../../src/ingestion/read-event-message.js';
import { readRawMessage } from '../../src/ingestion/read-raw-message.js';
import type { IncomingEvent, IncomingRaw } from '../../src/store/audit-repository.js';

/** One stream as the pipeline would publish it: its contract events and raw trace, decoded as the audit decodes them. */
export interface StreamFixture {
  readonly streamId: string;
  readonly tenant: string;
  readonly provider: ProviderName;
  readonly contractEvents: readonly ContractEvent[];
  readonly records: readonly TraceRecord[];
  readonly events: readonly IncomingEvent[];
  readonly raw: readonly IncomingRaw[];
}

export interface FixtureOptions {
  readonly streamId: string;
  readonly tenant: string;
  /** Receive time of the first record; each later record is 1 ms later. */
  readonly startTs?: number;
  readonly traceId?: string;
  /** LLM_RAW sequence of the first record. */
  readonly firstJsSeq?: number;
  /** The gateway route in stream.open and stream.start (none by default, as before routes). */
  readonly route?: string;
}

let unique = 0;

/** A fresh stream id (stream ids are subject tokens). */
export function newStreamId(prefix = 'st'): string {
  unique += 1;
  return `${prefix}_${Date.now().toString(36)}_${String(unique)}`;
}

/** A conformance transcript normalized in process, exactly as the pipeline does it. */
export function transcriptStream(provider: ProviderName, caseName: string, options: FixtureOptions): StreamFixture {
  const bytes = readFileSync(join(transcriptsDir(), provider, `${caseName}.sse`));
  let clock = options.startTs ?? 1_800_000_000_000;
  const { events, records } = normalizeTranscript(provider, bytes, {
    streamId: options.streamId,
    tenant: options.tenant,
    model: caseName,
    ...(options.route !== undefined && { route: options.route }),
    clock: () => clock++,
  });
  const traceHeaders: Record<string, string> =
    options.traceId === undefined ? {} : { traceparent: `00-${options.traceId}-${'1'.repeat(16)}-01` };
  const lookup = (headers: Readonly<Record<string, string>>) => (name: string) => headers[name];
  const incomingEvents = events.map((event) => {
    const message = encodeEventMessage(event, options.tenant, traceHeaders);
    const read = readEventMessage(message.subject, message.data, lookup(message.headers), null);
    if (!read.ok) throw new Error(read.error.message);
    return read.value;
  });
  const stream = { stream_id: options.streamId, tenant: options.tenant, provider, model: caseName };
  const firstJsSeq = options.firstJsSeq ?? 1;
  const raw = records.map((record, index) => {
    const encoded = encodeTraceRecord(record, stream);
    const headers = { ...traceHeaders, ...encoded.headers };
    const read = readRawMessage(`llm.raw.${options.tenant}.${options.streamId}`, encoded.data, lookup(headers), firstJsSeq + index, new TenantSettings([]));
    if (!read.ok || read.value === null) throw new Error('fixture record not readable');
    return read.value;
  });
  return { streamId: options.streamId, tenant: options.tenant, provider, contractEvents: events, records, events: incomingEvents, raw };
}
