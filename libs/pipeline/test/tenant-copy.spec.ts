import { jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { STREAM_NAMES, eventsSubject } from '@llm-stream/contract';
import { waitFor } from '@llm-stream/testing';
import { DEFAULT_STREAM_OPTIONS, pipelineStreamConfigs } from '../src/pipeline-streams.js';
import { capturedSubjects, provisionPipeline, tenantEventsStreamConfig } from '../src/auth/provision-pipeline.js';
import { tenantEventsSubjects } from '../src/auth/nats-identities.js';
import { connectNatsUser } from '../src/auth/connect-nats-user.js';
import type { NatsUserCredentials } from '../src/auth/nats-credentials.js';
import { startAuthorizedNats, type AuthorizedNats } from './support/authorized-nats.js';

const EVENTS = STREAM_NAMES.events;

/** Every message of a stream whose subject matches `filter`, in stored order, as `subject data` lines (data cut at its first space). */
async function storedMessages(jsm: JetStreamManager, filter: string): Promise<string[]> {
  const info = await jsm.streams.info(EVENTS);
  const lines: string[] = [];
  for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq += 1) {
    const message = await jsm.streams.getMessage(EVENTS, { seq });
    if (message !== null && matches(filter, message.subject)) lines.push(`${message.subject} ${message.string().split(' ')[0] ?? ''}`);
  }
  return lines;
}

function matches(filter: string, subject: string): boolean {
  if (filter === '>') return true;
  return filter.endsWith('.>') ? subject.startsWith(filter.slice(0, -1)) : subject === filter;
}

/**
 * A tenant's copy of its events (its account's LLM_EVENTS) is fed by a JetStream stream source from the
 * platform's LLM_EVENTS, across accounts: a consumer with a position. These specs run the shipped server
 * configuration on a real nats-server and compare the copy with the platform's stream message by message.
 */
describe("a tenant's copy of its events, sourced from the platform's stream (shipped NATS configuration)", () => {
  let nats: AuthorizedNats;
  let normalizer: NatsConnection;
  let platformJsm: JetStreamManager;
  let acmeAdmin: NatsConnection;

  // Connections that outlive the server's restart in the fault spec.
  const connect = (user: NatsUserCredentials) => connectNatsUser({ servers: [nats.server.url], name: `copy-spec-${user.user}`, user, reconnectTimeWait: 100 });

  beforeAll(async () => {
    nats = await startAuthorizedNats(['acme', 'globex']);
    normalizer = await connect(nats.credentials.platform.normalizer);
    platformJsm = await jetstreamManager(normalizer);
    acmeAdmin = await connect(nats.credentials.tenants['acme']!.provisioner);
  }, 30_000);

  afterAll(async () => {
    await normalizer.close();
    await acmeAdmin.close();
    await nats.stop();
  });

  /** Waits until acme's copy holds exactly what the platform holds of acme, in the same order; returns it. */
  async function expectCopyEqualsPlatform(): Promise<string[]> {
    const acmeJsm = await jetstreamManager(acmeAdmin);
    const filter = tenantEventsSubjects('acme');
    let platform: string[] = [];
    await waitFor(async () => {
      platform = await storedMessages(platformJsm, filter);
      return (await acmeJsm.streams.info(EVENTS)).state.messages >= platform.length;
    }, { timeoutMs: 15_000, description: "acme's copy to catch up with the platform's stream" });
    const copy = await storedMessages(acmeJsm, '>');
    expect(copy).toEqual(platform);
    return copy;
  }

  it("holds exactly its tenant's events, those published while the copy was away included, above the flow-control window", async () => {
    const acmeJsm = await jetstreamManager(acmeAdmin);
    await acmeJsm.streams.delete(EVENTS);
    // 3,000 events of 1 KiB: past the ~2 MB a source's consumer sends before it waits for flow control.
    const js = jetstream(normalizer);
    const body = 'x'.repeat(1_024);
    for (let seq = 1; seq <= 3_000; seq += 1) normalizer.publish(eventsSubject('acme', `st_backlog_${String(seq % 30)}`), `${String(seq)} ${body}`);
    await js.publish(eventsSubject('globex', 'st_other'), 'not acme');
    await acmeJsm.streams.add(tenantEventsStreamConfig('acme', DEFAULT_STREAM_OPTIONS));
    const copy = await expectCopyEqualsPlatform();
    expect(copy).toHaveLength(3_000);
    expect(copy.some((line) => line.includes('globex'))).toBe(false);
  }, 60_000);

  it('misses nothing and stores nothing twice through a NATS kill -9 and a pause', async () => {
    const js = jetstream(normalizer);
    let published = 0;
    const run = { stop: false };
    // Acked publishes: each one the platform confirmed stored must be in the copy too, once, in order.
    const publishing = (async () => {
      while (!run.stop) {
        const seq = published + 1;
        try {
          await js.publish(eventsSubject('acme', `st_fault_${String(seq % 20)}`), String(seq), { msgID: `st_fault:${String(seq)}`, timeout: 1_000 });
          published = seq;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    })();
    const publishedAtLeast = (count: number) => waitFor(() => published >= count, { timeoutMs: 20_000, description: `${String(count)} acked publishes` });
    await publishedAtLeast(300);
    await nats.server.kill('SIGKILL');
    await nats.server.restart();
    await publishedAtLeast(published + 300);
    await nats.server.pause();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    nats.server.resume();
    await publishedAtLeast(published + 300);
    run.stop = true;
    await publishing;
    const copy = await expectCopyEqualsPlatform();
    const faultSeqs = copy.filter((line) => line.includes('st_fault_')).map((line) => Number(line.split(' ')[1]));
    expect(new Set(faultSeqs).size).toBe(faultSeqs.length);
    expect(faultSeqs.length).toBeGreaterThanOrEqual(published);
  }, 90_000);

  it('provisioning recreates a copy of the earlier form (capturing the imported subjects) as a sourced one, once', async () => {
    const acmeJsm = await jetstreamManager(acmeAdmin);
    await acmeJsm.streams.delete(EVENTS);
    const captured = pipelineStreamConfigs(DEFAULT_STREAM_OPTIONS).find((config) => config.name === EVENTS)!;
    await acmeJsm.streams.add({ ...captured, subjects: [tenantEventsSubjects('acme')] });
    await jetstream(normalizer).publish(eventsSubject('acme', 'st_migrated'), 'captured before the upgrade');
    const provision = () => provisionPipeline({ servers: [nats.server.url], credentials: nats.credentials });
    await expect(provision()).resolves.toEqual({ recreatedCopies: ['acme'] });
    const info = await acmeJsm.streams.info(EVENTS);
    expect(capturedSubjects(info.config)).toEqual([]);
    expect(info.config.sources?.map((source) => source.filter_subject)).toEqual([tenantEventsSubjects('acme')]);
    const copy = await expectCopyEqualsPlatform();
    expect(copy.filter((line) => line.includes('st_migrated'))).toEqual([`${eventsSubject('acme', 'st_migrated')} captured`]);
    await expect(provision()).resolves.toEqual({ recreatedCopies: [] });
  }, 60_000);
});
