import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { encodeEventMessage, toNatsHeaders } from '@llm-stream/pipeline';
import { STREAM_NAMES, encodeTraceRecord, rawSubject } from '@llm-stream/contract';
import { AUDIT_CONSUMERS } from '../../src/ingestion/audit-consumers.js';
import type { StreamFixture } from './stream-fixtures.js';

export interface JetStreamSession {
  readonly nc: NatsConnection;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  close(): Promise<void>;
}

/**
 * JetStream over a connection of the test's (on the authorized server: the provisioner's, which publishes as the
 * gateway and the normalizer would and inspects what the audit log's consumers hold; the streams exist already).
 */
export async function openJetStream(nc: NatsConnection): Promise<JetStreamSession> {
  return { nc, js: jetstream(nc), jsm: await jetstreamManager(nc), close: () => nc.close() };
}

/**
 * Publishes a stream as the gateway and the normalizer would (same subjects, headers, Nats-Msg-Id), with
 * JetStream acks. `msgIdSuffix` makes JetStream store the messages again (a republish it cannot deduplicate).
 */
export async function publishStream(js: JetStreamClient, stream: StreamFixture, options: { traceparent?: string; msgIdSuffix?: string } = {}): Promise<void> {
  const trace: Record<string, string> = options.traceparent === undefined ? {} : { traceparent: options.traceparent };
  const suffix = options.msgIdSuffix ?? '';
  const info = { stream_id: stream.streamId, tenant: stream.tenant, provider: stream.provider, model: 'm' };
  const pending: Promise<unknown>[] = [];
  for (const record of stream.records) {
    const encoded = encodeTraceRecord(record, info);
    const headers = { ...trace, ...encoded.headers };
    const msgID = `${headers['Nats-Msg-Id'] ?? ''}${suffix}`;
    pending.push(js.publish(rawSubject(stream.tenant, stream.streamId), encoded.data, { msgID, headers: toNatsHeaders(headers) }));
  }
  for (const event of stream.contractEvents) {
    const message = encodeEventMessage(event, stream.tenant, trace);
    pending.push(js.publish(message.subject, message.data, { msgID: `${message.msgId}${suffix}`, headers: toNatsHeaders(message.headers) }));
  }
  await Promise.all(pending);
}

/** Messages the audit log's consumers have not acked yet (delivered or not). */
export async function auditBacklog(jsm: JetStreamManager): Promise<number> {
  const events = await jsm.consumers.info(STREAM_NAMES.events, AUDIT_CONSUMERS.events);
  const raw = await jsm.consumers.info(STREAM_NAMES.raw, AUDIT_CONSUMERS.raw);
  return events.num_pending + events.num_ack_pending + raw.num_pending + raw.num_ack_pending;
}
