import { AckPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { DURABLE_CONSUMERS, STREAM_NAMES, WORK_HOLDER_QUERIES, eventsSubject, gatewayLeaseSubject, rawSubject, workSubject } from '@llm-stream/contract';
import { SERVICE_IDENTITIES } from '../src/auth/nats-identities.js';
import { connectPipeline } from '../src/connect-pipeline.js';
import { ensureDurableConsumer } from '../src/durable/durable-consumer.js';
import { expectPermissionDenied, jsApi, startAuthorizedNats, subscriptionRefusal, type AuthorizedNats } from './support/authorized-nats.js';

/**
 * Each platform identity on a real nats-server running the shipped configuration: what it may do (its job)
 * and what it may not (subscribe elsewhere, publish another's subjects, create or change a stream, touch
 * another service's durable consumer).
 */
describe('platform identities on the shipped NATS configuration', () => {
  let nats: AuthorizedNats;
  let gateway: NatsConnection;
  let normalizer: NatsConnection;
  let audit: NatsConnection;
  const work = DURABLE_CONSUMERS.normalizerWork;
  const auditEvents = DURABLE_CONSUMERS.auditEvents;

  beforeAll(async () => {
    nats = await startAuthorizedNats(['acme']);
    gateway = await nats.connectAs(nats.credentials.platform.gateway);
    normalizer = await nats.connectAs(nats.credentials.platform.normalizer);
    audit = await nats.connectAs(nats.credentials.platform['audit-log']);
  }, 30_000);

  afterAll(async () => {
    await nats.stop();
  });

  it('refuses an anonymous connection and a wrong password', async () => {
    await expect(connect({ servers: nats.server.url })).rejects.toThrow(/Authorization Violation/);
    await expect(connect({ servers: nats.server.url, user: 'gateway', pass: 'wrong' })).rejects.toThrow(/Authorization Violation/);
  });

  it.each(SERVICE_IDENTITIES)('%s connects as a service does (the streams are checked, nothing is refused)', async (identity) => {
    const { user, password } = nats.credentials.platform[identity];
    const nc = await connectPipeline({ servers: [nats.server.url], name: `check-${identity}`, user, password, maxReconnectAttempts: 0 });
    await nc.close();
    expect(nats.server.logTail(500)).not.toMatch(/Violation - User "[^"]*", Subject "\$JS\.API\.STREAM\.INFO/);
  });

  it('the provisioner created the three streams; no service may create, purge or delete one', async () => {
    const streams = await (await jetstreamManager(await nats.connectAs(nats.credentials.platform.provisioner))).streams.names().next();
    expect([...streams].sort()).toEqual([STREAM_NAMES.events, STREAM_NAMES.raw, STREAM_NAMES.work]);
    for (const nc of [gateway, normalizer, audit]) {
      await expectPermissionDenied(jsApi(nc, `$JS.API.STREAM.DELETE.${STREAM_NAMES.events}`));
      await expectPermissionDenied(jsApi(nc, `$JS.API.STREAM.PURGE.${STREAM_NAMES.raw}`));
      await expectPermissionDenied(jsApi(nc, `$JS.API.STREAM.UPDATE.${STREAM_NAMES.raw}`, { name: STREAM_NAMES.raw, subjects: ['>'] }));
      await expectPermissionDenied(jsApi(nc, '$JS.API.STREAM.CREATE.STOLEN', { name: 'STOLEN', subjects: ['llm.>'] }));
      await expectPermissionDenied(jsApi(nc, `$JS.API.STREAM.MSG.DELETE.${STREAM_NAMES.events}`, { seq: 1 }));
    }
  });

  it('gateway: publishes raw traces, work items and its lease, reads events; forges no event, reads no work item', async () => {
    const js = jetstream(gateway);
    await expect(js.publish(rawSubject('acme', 'st_gw'), '{}')).resolves.toMatchObject({ stream: STREAM_NAMES.raw });
    await expect(js.publish(workSubject('acme', 'st_gw'), '{}')).resolves.toMatchObject({ stream: STREAM_NAMES.work });
    gateway.publish(gatewayLeaseSubject('gw-1'), '{}');
    await expectPermissionDenied(js.publish(eventsSubject('acme', 'st_gw'), '{}'));
    const reader = await js.consumers.get(STREAM_NAMES.events, { filter_subjects: eventsSubject('acme', 'st_gw') });
    await expect(reader.info()).resolves.toMatchObject({ stream_name: STREAM_NAMES.events });
    await reader.delete();
    expect(await subscriptionRefusal(gateway, eventsSubject('acme', 'st_gw'))).toBeNull();
    expect(await subscriptionRefusal(gateway, 'llm.work.>')).toMatch(/Permissions Violation/);
    expect(await subscriptionRefusal(gateway, '_INBOX.>')).toMatch(/Permissions Violation/);
    expect(await subscriptionRefusal(gateway, '_INBOX_normalizer.>')).toMatch(/Permissions Violation/);
    await expectPermissionDenied(jsApi(gateway, `$JS.API.CONSUMER.CREATE.${STREAM_NAMES.work}.mine`, { stream_name: STREAM_NAMES.work, config: { name: 'mine', ack_policy: AckPolicy.None } }));
  });

  it('normalizer: publishes events, owns the work consumer; cannot publish work items or take the audit consumers', async () => {
    const jsm = await jetstreamManager(normalizer);
    await ensureDurableConsumer(jsm, { stream: work.stream, durable: work.durable, ackWaitMs: 5_000, maxAckPending: -1 });
    await expect(jsm.consumers.info(work.stream, work.durable)).resolves.toMatchObject({ name: work.durable });
    const js = jetstream(normalizer);
    await expect(js.publish(eventsSubject('acme', 'st_n'), '{}')).resolves.toMatchObject({ stream: STREAM_NAMES.events });
    await expectPermissionDenied(js.publish(workSubject('acme', 'st_n'), '{}'));
    expect(await subscriptionRefusal(normalizer, 'llm.control.cancel.*')).toMatch(/Permissions Violation/);
    // The work-progress thread answers holder queries; a gateway may neither answer nor ask them.
    expect(await subscriptionRefusal(normalizer, WORK_HOLDER_QUERIES)).toBeNull();
    expect(await subscriptionRefusal(gateway, WORK_HOLDER_QUERIES)).toMatch(/Permissions Violation/);
    expect(await subscriptionRefusal(normalizer, '_INBOX_gateway.>')).toMatch(/Permissions Violation/);
    await expectPermissionDenied(
      jsm.consumers.add(auditEvents.stream, { durable_name: auditEvents.durable, ack_policy: AckPolicy.Explicit, filter_subject: 'llm.events.nobody.>' }),
    );
    await expectPermissionDenied(jsApi(normalizer, `$JS.API.CONSUMER.DELETE.${auditEvents.stream}.${auditEvents.durable}`));
    await expectPermissionDenied(jsApi(normalizer, `$JS.API.CONSUMER.MSG.NEXT.${auditEvents.stream}.${auditEvents.durable}`, { batch: 1 }));
  });

  it('audit log: owns its two durable consumers and reads through them only; publishes nothing on the pipeline', async () => {
    const jsm = await jetstreamManager(audit);
    for (const durable of [DURABLE_CONSUMERS.auditEvents, DURABLE_CONSUMERS.auditRaw]) {
      await ensureDurableConsumer(jsm, { ...durable, ackWaitMs: 5_000, maxAckPending: 100 });
      await expect(jsm.consumers.info(durable.stream, durable.durable)).resolves.toMatchObject({ name: durable.durable });
    }
    const messages = await jetstream(audit).consumers.get(auditEvents.stream, auditEvents.durable);
    const batch = await messages.fetch({ max_messages: 1, expires: 1_000 });
    for await (const message of batch) {
      message.ack();
      break;
    }
    await expectPermissionDenied(jetstream(audit).publish(eventsSubject('acme', 'st_a'), '{}'));
    await expectPermissionDenied(jsApi(audit, `$JS.API.CONSUMER.CREATE.${STREAM_NAMES.events}.other`, { stream_name: STREAM_NAMES.events, config: { name: 'other', ack_policy: AckPolicy.None } }));
    await expectPermissionDenied(jsApi(audit, `$JS.API.CONSUMER.DELETE.${work.stream}.${work.durable}`));
    expect(await subscriptionRefusal(audit, 'llm.>')).toMatch(/Permissions Violation/);
  });

  it("no service can update another's durable through the old ephemeral-create subject", async () => {
    const before = await (await jetstreamManager(audit)).consumers.info(auditEvents.stream, auditEvents.durable);
    const answer = await jsApi(gateway, `$JS.API.CONSUMER.CREATE.${auditEvents.stream}`, {
      stream_name: auditEvents.stream,
      config: { name: auditEvents.durable, durable_name: auditEvents.durable, ack_policy: AckPolicy.Explicit, filter_subject: 'llm.events.nobody.>' },
    });
    expect(answer.error).toBeDefined();
    const after = await (await jetstreamManager(audit)).consumers.info(auditEvents.stream, auditEvents.durable);
    expect(after.config.filter_subject ?? null).toEqual(before.config.filter_subject ?? null);
  });
});
