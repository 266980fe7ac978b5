import 'reflect-metadata';
import type { Consumer } from '@nats-io/jetstream';
import { STREAM_NAMES } from '@llm-stream/contract';
import { JsonLogger } from '@llm-stream/service-kit';
import { ensureDurableConsumer } from '@llm-stream/pipeline';
import { AUDIT_CONSUMERS } from '../src/ingestion/audit-consumers.js';
import { IngestionLagPoller } from '../src/lag/ingestion-lag-poller.js';
import { AuditMetrics } from '../src/metrics/audit-metrics.js';
import { startAuthorizedNats, type AuthorizedNats } from './support/authorized-nats.js';
import { openJetStream, type JetStreamSession } from './support/jetstream.js';

/**
 * The lag poller against a real nats-server: what it reports for a consumer is what JetStream holds for it
 * (undelivered, delivered but unacked, the JetStream time of the oldest message not acked). The server runs the
 * shipped authorization: the poller and the consumer are the audit log's user; the test publishes, inspects and
 * deletes messages as the provisioner.
 */
const DAY_MS = 86_400_000;

describe('IngestionLagPoller (real nats-server with JetStream)', () => {
  let nats: AuthorizedNats;
  /** The provisioner's. */
  let session: JetStreamSession;
  /** The audit log's. */
  let auditSession: JetStreamSession;
  let consumer: Consumer;
  let metrics: AuditMetrics;
  let poller: IngestionLagPoller;
  const durable = AUDIT_CONSUMERS.events;
  const subject = 'llm.events.acme.st_lag';

  beforeAll(async () => {
    nats = await startAuthorizedNats();
    session = await openJetStream(await nats.connectAs('provisioner'));
    auditSession = await openJetStream(await nats.connectAs('audit-log'));
    await ensureDurableConsumer(auditSession.jsm, { stream: STREAM_NAMES.events, durable, ackWaitMs: 60_000, maxAckPending: 100 });
    consumer = await auditSession.js.consumers.get(STREAM_NAMES.events, durable);
    metrics = new AuditMetrics();
    poller = new IngestionLagPoller(
      auditSession.jsm,
      [
        { stream: STREAM_NAMES.events, consumer: durable },
        // The audit log's own durable on the raw stream, not created here: missing, as before the service's first start.
        { stream: STREAM_NAMES.raw, consumer: AUDIT_CONSUMERS.raw },
      ],
      60_000,
      metrics,
      new JsonLogger('audit-log', { level: 'error' }),
    );
  });

  afterAll(async () => {
    await nats.stop();
  });

  const storedTime = async (seq: number): Promise<number> => {
    const stored = await session.jsm.streams.getMessage(STREAM_NAMES.events, { seq });
    if (stored === null) throw new Error(`message ${String(seq)} is not stored`);
    return stored.time.getTime();
  };
  const gauge = async (name: string, labels: string): Promise<number> => {
    const match = new RegExp(`^${name}\\{${labels}\\} (\\S+)$`, 'm').exec(await metrics.render());
    return Number(match?.[1] ?? NaN);
  };

  it('reports no lag for a consumer that has processed everything', async () => {
    const now = Date.now();
    await poller.poll(now);
    expect(poller.report()[durable]).toEqual({ undelivered: 0, unacked: 0, oldest_age_ms: 0, retention_ms: DAY_MS, measured_at: now });
    expect(await gauge('llm_audit_ingestion_lag_seconds', `consumer="${durable}"`)).toBe(0);
    // The pipeline's default: LLM_EVENTS keeps events for EVENTS_RETENTION_HOURS = 24.
    expect(await gauge('llm_audit_ingestion_retention_seconds', `consumer="${durable}"`)).toBe(DAY_MS / 1000);
  });

  it('reports what JetStream holds, and the age of the oldest message not acked', async () => {
    for (let index = 1; index <= 4; index += 1) await session.js.publish(subject, `event ${String(index)}`);
    const later = Date.now() + 90_000;
    await poller.poll(later);
    expect(poller.report()[durable]).toEqual({ undelivered: 4, unacked: 0, oldest_age_ms: later - (await storedTime(1)), retention_ms: DAY_MS, measured_at: later });
    expect(await gauge('llm_audit_ingestion_lag_messages', `consumer="${durable}",state="undelivered"`)).toBe(4);
    expect(await gauge('llm_audit_ingestion_lag_seconds', `consumer="${durable}"`)).toBeGreaterThanOrEqual(90);

    // Three delivered, the first acked: the oldest unprocessed one is now the second (delivered, not acked).
    const fetched = await consumer.fetch({ max_messages: 3, expires: 5_000 });
    const messages = [];
    for await (const message of fetched) messages.push(message);
    expect(messages.map((message) => message.seq)).toEqual([1, 2, 3]);
    await messages[0]?.ackAck();
    await poller.poll(later);
    expect(poller.report()[durable]).toEqual({ undelivered: 1, unacked: 2, oldest_age_ms: later - (await storedTime(2)), retention_ms: DAY_MS, measured_at: later });
    expect(await gauge('llm_audit_ingestion_lag_messages', `consumer="${durable}",state="unacked"`)).toBe(2);

    // The message after the ack floor is gone (as when the stream's max age removes it): the next stored one counts.
    await session.jsm.streams.deleteMessage(STREAM_NAMES.events, 2);
    await poller.poll(later);
    expect((poller.report()[durable] as { oldest_age_ms: number }).oldest_age_ms).toBe(later - (await storedTime(3)));

    for (const message of messages.slice(1)) await message.ackAck();
    const rest = await consumer.fetch({ max_messages: 1, expires: 5_000 });
    for await (const message of rest) await message.ackAck();
    await poller.poll(later);
    expect(poller.report()[durable]).toEqual({ undelivered: 0, unacked: 0, oldest_age_ms: 0, retention_ms: DAY_MS, measured_at: later });
  });

  it('reports a consumer it cannot measure, and counts the failed polls', async () => {
    await poller.poll(Date.now());
    expect(poller.report()[AUDIT_CONSUMERS.raw]).toEqual({ unknown: expect.stringMatching(/consumer not found/i) as unknown });
    expect(await gauge('llm_audit_ingestion_lag_poll_failures_total', `consumer="${AUDIT_CONSUMERS.raw}"`)).toBeGreaterThanOrEqual(1);
  });
});
