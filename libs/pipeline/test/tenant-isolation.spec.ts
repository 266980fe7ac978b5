import { AckPolicy, jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { STREAM_NAMES, eventsSubject } from '@llm-stream/contract';
import { waitFor } from '@llm-stream/testing';
import { expectPermissionDenied, jsApi, startAuthorizedNats, subscriptionRefusal, type AuthorizedNats } from './support/authorized-nats.js';

const EVENTS = STREAM_NAMES.events;
const ACME_DURABLE = 'acme-reader';

/**
 * A backend of tenant B (globex) on the shipped configuration tries every way to reach tenant A (acme):
 * subscribe, pull from, update or delete A's consumer, create one with old or new API subjects, read A's
 * inbox, direct get, stream info and purge. Each tenant's account holds only its own events, so every name
 * B can use resolves inside B's account.
 */
describe("a tenant's backend on the shipped NATS configuration", () => {
  let nats: AuthorizedNats;
  let normalizer: NatsConnection;
  let acme: NatsConnection;
  let acmeJsm: JetStreamManager;
  let globex: NatsConnection;

  const publishEvent = async (tenant: string, streamId: string): Promise<void> => {
    await jetstream(normalizer).publish(eventsSubject(tenant, streamId), JSON.stringify({ tenant, streamId }));
  };
  const tenantMessages = async (nc: NatsConnection): Promise<number> => (await (await jetstreamManager(nc)).streams.info(EVENTS)).state.messages;

  beforeAll(async () => {
    nats = await startAuthorizedNats(['acme', 'globex']);
    normalizer = await nats.connectAs(nats.credentials.platform.normalizer);
    acme = await nats.connectAs(nats.credentials.tenants['acme']!.backend);
    globex = await nats.connectAs(nats.credentials.tenants['globex']!.backend);
    acmeJsm = await jetstreamManager(acme);
    await publishEvent('acme', 'st_a1');
    await publishEvent('globex', 'st_g1');
    await waitFor(async () => (await tenantMessages(acme)) === 1 && (await tenantMessages(globex)) === 1, { timeoutMs: 5_000, description: 'each tenant stream to hold its event' });
    await acmeJsm.consumers.add(EVENTS, { durable_name: ACME_DURABLE, ack_policy: AckPolicy.Explicit, filter_subject: 'llm.events.acme.>' });
  }, 30_000);

  afterAll(async () => {
    await nats.stop();
  });

  it("reads its own tenant's events, stored and live, and only those", async () => {
    const consumer = await jetstream(acme).consumers.get(EVENTS, { filter_subjects: 'llm.events.acme.>' });
    const stored = await consumer.next({ expires: 2_000 });
    expect(stored?.subject).toBe(eventsSubject('acme', 'st_a1'));
    await consumer.delete();
    const info = await acmeJsm.streams.info(EVENTS, { subjects_filter: '>' });
    expect(Object.keys(info.state.subjects ?? {})).toEqual([eventsSubject('acme', 'st_a1')]);
    const live = acme.subscribe('llm.events.acme.>', { max: 1 });
    await acme.flush();
    await publishEvent('acme', 'st_a2');
    for await (const message of live) expect(message.subject).toBe(eventsSubject('acme', 'st_a2'));
    const durable = await jetstream(acme).consumers.get(EVENTS, ACME_DURABLE);
    const first = await durable.next({ expires: 2_000 });
    expect(first?.subject).toBe(eventsSubject('acme', 'st_a1'));
    await first?.ackAck();
  });

  it('cannot forge events into its stream nor change, purge or delete the stream', async () => {
    await expectPermissionDenied(jetstream(acme).publish(eventsSubject('acme', 'st_forged'), '{}'));
    await expectPermissionDenied(jsApi(acme, `$JS.API.STREAM.DELETE.${EVENTS}`));
    await expectPermissionDenied(jsApi(acme, `$JS.API.STREAM.PURGE.${EVENTS}`));
    await expectPermissionDenied(jsApi(acme, `$JS.API.STREAM.UPDATE.${EVENTS}`, { name: EVENTS, subjects: ['>'] }));
    await expectPermissionDenied(jsApi(acme, '$JS.API.STREAM.CREATE.MINE', { name: 'MINE', subjects: ['mine.>'] }));
    expect(await subscriptionRefusal(acme, 'llm.raw.>')).toMatch(/Permissions Violation/);
  });

  it("tenant B cannot subscribe to A's events, nor see anything of the platform", async () => {
    expect(await subscriptionRefusal(globex, 'llm.events.acme.>')).toMatch(/Permissions Violation/);
    expect(await subscriptionRefusal(globex, '>')).toMatch(/Permissions Violation/);
    await expectPermissionDenied(jsApi(globex, `$JS.API.STREAM.INFO.${STREAM_NAMES.raw}`));
    // Its administrator may ask: the platform's streams do not exist in its account.
    const admin = await nats.connectAs(nats.credentials.tenants['globex']!.provisioner);
    expect((await jsApi(admin, `$JS.API.STREAM.INFO.${STREAM_NAMES.raw}`)).error?.code).toBe(404);
    expect((await jsApi(admin, `$JS.API.STREAM.INFO.${STREAM_NAMES.work}`)).error?.code).toBe(404);
  });

  it("tenant B cannot pull from, inspect, update or delete A's consumer", async () => {
    // No consumer of that name in B's account: the pull is never answered.
    await expect(globex.request(`$JS.API.CONSUMER.MSG.NEXT.${EVENTS}.${ACME_DURABLE}`, JSON.stringify({ batch: 1 }), { timeout: 1_000 })).rejects.toThrow(/timeout/);
    expect((await jsApi(globex, `$JS.API.CONSUMER.INFO.${EVENTS}.${ACME_DURABLE}`)).error?.code).toBe(404);
    expect((await jsApi(globex, `$JS.API.CONSUMER.DELETE.${EVENTS}.${ACME_DURABLE}`)).error?.code).toBe(404);
    const update = { stream_name: EVENTS, config: { durable_name: ACME_DURABLE, name: ACME_DURABLE, ack_policy: AckPolicy.Explicit, filter_subject: 'llm.events.globex.>' } };
    await jsApi(globex, `$JS.API.CONSUMER.DURABLE.CREATE.${EVENTS}.${ACME_DURABLE}`, update);
    await jsApi(globex, `$JS.API.CONSUMER.CREATE.${EVENTS}.${ACME_DURABLE}.llm.events.globex.>`, update);
    const acmeConsumer = await acmeJsm.consumers.info(EVENTS, ACME_DURABLE);
    expect(acmeConsumer.config.filter_subject).toBe('llm.events.acme.>');
    expect(acmeConsumer.delivered.stream_seq).toBeGreaterThan(0);
  });

  it("tenant B's consumers over A's subjects, with old or new API subjects, deliver nothing of A", async () => {
    const config = (name?: string) => ({ stream_name: EVENTS, config: { ...(name === undefined ? {} : { name, durable_name: name }), ack_policy: AckPolicy.None, filter_subject: 'llm.events.acme.>' } });
    const attempts = [
      jsApi(globex, `$JS.API.CONSUMER.CREATE.${EVENTS}`, config()),
      jsApi(globex, `$JS.API.CONSUMER.DURABLE.CREATE.${EVENTS}.steal-old`, config('steal-old')),
      jsApi(globex, `$JS.API.CONSUMER.CREATE.${EVENTS}.steal-new`, config('steal-new')),
      jsApi(globex, `$JS.API.CONSUMER.CREATE.${EVENTS}.steal-filtered.llm.events.acme.>`, config('steal-filtered')),
    ];
    // B's copy captures no subject of its own (it is sourced), so the filters are accepted: over B's account,
    // which holds nothing of A.
    for (const answer of await Promise.all(attempts)) {
      expect(answer.error).toBeUndefined();
      expect(answer['num_pending']).toBe(0);
      await jsApi(globex, `$JS.API.CONSUMER.DELETE.${EVENTS}.${String(answer['name'])}`);
    }
    // Unfiltered, its consumer sees only what its account holds: its own tenant's events.
    const all = await jetstream(globex).consumers.get(EVENTS);
    const only = await all.next({ expires: 2_000 });
    expect(only?.subject).toBe(eventsSubject('globex', 'st_g1'));
    expect((await all.info()).num_pending).toBe(0);
    await all.delete();
  });

  it("tenant B cannot read A's inbox: A's replies stay in A's account", async () => {
    const seen: string[] = [];
    const inbox = globex.subscribe('_INBOX.>', { callback: (_error, message) => {
        seen.push(message.subject);
      },
    });
    await globex.flush();
    await acmeJsm.streams.info(EVENTS);
    await jetstream(acme).consumers.get(EVENTS, ACME_DURABLE).then((consumer) => consumer.info());
    // Delivered to B's subscription, a reply would precede the answer to B's own ping.
    await globex.flush();
    inbox.unsubscribe();
    expect(seen).toEqual([]);
  });

  it("tenant B's direct get, message get, stream info and purge never reach A's events", async () => {
    const direct = await globex.request(`$JS.API.DIRECT.GET.${EVENTS}`, JSON.stringify({ last_by_subj: eventsSubject('acme', 'st_a1') }), { timeout: 2_000 });
    expect(direct.headers?.code).toBe(404);
    const directBySubject = await globex.request(`$JS.API.DIRECT.GET.${EVENTS}.${eventsSubject('acme', 'st_a1')}`, '', { timeout: 2_000 });
    expect(directBySubject.headers?.code).toBe(404);
    expect((await jsApi(globex, `$JS.API.STREAM.MSG.GET.${EVENTS}`, { last_by_subj: eventsSubject('acme', 'st_a1') })).error?.code).toBe(404);
    const info = await (await jetstreamManager(globex)).streams.info(EVENTS, { subjects_filter: '>' });
    expect(Object.keys(info.state.subjects ?? {})).toEqual([eventsSubject('globex', 'st_g1')]);
    await expectPermissionDenied(jsApi(globex, `$JS.API.STREAM.PURGE.${EVENTS}`, { filter: 'llm.events.acme.>' }));
    expect(await tenantMessages(acme)).toBeGreaterThanOrEqual(2);
  });

  it("no user of B's account may use the platform API its copy's source imports", async () => {
    const admin = await nats.connectAs(nats.credentials.tenants['globex']!.provisioner);
    const create = { stream_name: EVENTS, config: { name: 'steal', filter_subject: 'llm.events.globex.>', deliver_subject: 'llm.copy-deliver.globex.steal', ack_policy: AckPolicy.None } };
    for (const user of [globex, admin]) {
      await expectPermissionDenied(jsApi(user, `$JS.PLATFORM.API.CONSUMER.CREATE.${EVENTS}.steal.llm.events.globex.>`, create));
      await expectPermissionDenied(jsApi(user, `$JS.FC.${EVENTS}.steal.1`));
    }
    expect(await subscriptionRefusal(globex, 'llm.copy-deliver.>')).toMatch(/Permissions Violation/);
  });

  it("even tenant B's administrator, pointing its copy's source or subjects at A's events, receives nothing of A", async () => {
    const admin = await jetstreamManager(await nats.connectAs(nats.credentials.tenants['globex']!.provisioner));
    const { config } = await admin.streams.info(EVENTS);
    const sources = (config.sources ?? []).map((source) => ({ ...source, filter_subject: 'llm.events.acme.>' }));
    await admin.streams.update(EVENTS, { ...config, sources, subjects: ['llm.events.acme.>'] });
    await publishEvent('acme', 'st_a3');
    const acmeHolds = async (): Promise<boolean> => eventsSubject('acme', 'st_a3') in ((await acmeJsm.streams.info(EVENTS, { subjects_filter: '>' })).state.subjects ?? {});
    await waitFor(acmeHolds, { timeoutMs: 5_000, description: "acme's event in acme's stream" });
    // A's own copy got it; a source allowed to create its consumer would have had it well within this.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const info = await admin.streams.info(EVENTS, { subjects_filter: 'llm.events.acme.>' });
    expect(info.state.subjects ?? {}).toEqual({});
  });
});
