import { jetstream, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { headerLookup, storedMessageCount } from '@llm-stream/pipeline';
import { STREAM_NAMES, decodeTraceRecord, rawSubject, type TraceRecord } from '@llm-stream/contract';

/** A stream's raw trace as stored in LLM_RAW, in stored order (what a normalizer replays). */
export async function readRawTrace(nc: NatsConnection, jsm: JetStreamManager, tenant: string, streamId: string): Promise<TraceRecord[]> {
  const subject = rawSubject(tenant, streamId);
  const count = await storedMessageCount(jsm, STREAM_NAMES.raw, subject);
  const consumer = await jetstream(nc).consumers.get(STREAM_NAMES.raw, { filter_subjects: subject });
  const records: TraceRecord[] = [];
  while (records.length < count) {
    const message = await consumer.next({ expires: 5_000 });
    if (message === null) throw new Error(`${subject}: only ${String(records.length)} of ${String(count)} records could be read`);
    const decoded = decodeTraceRecord(headerLookup(message.headers), message.string());
    if (!decoded.ok) throw new Error(`${subject}: ${decoded.error.message}`);
    records.push(decoded.value);
  }
  await consumer.delete();
  return records;
}

/** `attempt.start#1`, `upstream.response#1:429`, `frame#2`...: a trace's shape, frames collapsed into one entry per run. */
export function traceOutline(records: readonly TraceRecord[]): string[] {
  const outline: string[] = [];
  for (const record of records) {
    let entry: string = record.kind;
    if ('attempt' in record) entry += `#${String(record.attempt)}`;
    if (record.kind === 'upstream.response') entry += `:${String(record.status)}`;
    if (record.kind === 'attempt.end') entry += `:${record.reason}`;
    if (outline.at(-1) === entry && record.kind === 'frame') continue;
    outline.push(entry);
  }
  return outline;
}
