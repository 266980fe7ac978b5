import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { STREAM_NAMES, eventsSubject } from '@llm-stream/contract';
import { CheckpointedPublisher, type FinishResult, type OutgoingMessage } from '../src/checkpointed-publisher.js';
import { DEFAULT_STREAM_OPTIONS } from '../src/pipeline-streams.js';
import { tenantEventsStreamConfig } from '../src/auth/provision-pipeline.js';
import { tenantCopyCounter } from '../src/auth/tenant-copy-count.js';
import { headerBlock } from '../src/header-block.js';
import { startAuthorizedNats, type AuthorizedNats } from './support/authorized-nats.js';

const EVENTS = STREAM_NAMES.events;

function message(streamId: string, seq: number): OutgoingMessage {
  const msgId = `${streamId}:${String(seq)}`;
  return { data: JSON.stringify({ seq }), msgId, position: seq, headerBlock: headerBlock({ 'Nats-Msg-Id': msgId }) };
}

/**
 * A tenant's copy of its events is fed by the platform's export, as core delivery: an event the copy could not
 * store (here: its stream is away, as on a NATS restart) is in the platform's stream only. The event publisher
 * counts the copy too, through the stream-info service the tenant's account exports, and republishes what it lacks.
 */
describe("the event publisher proves the tenant's copy complete (shipped NATS configuration)", () => {
  let nats: AuthorizedNats;
  let normalizer: NatsConnection;
  let acmeAdmin: NatsConnection;

  beforeAll(async () => {
    nats = await startAuthorizedNats(['acme']);
    normalizer = await nats.connectAs(nats.credentials.platform.normalizer);
    acmeAdmin = await nats.connectAs(nats.credentials.tenants['acme']!.provisioner);
  }, 30_000);

  afterAll(async () => {
    await normalizer.close();
    await acmeAdmin.close();
    await nats.stop();
  });

  /** An event publisher that proves acme's copy too, with no timed check before the end. */
  async function copyProvingPublisher(subject: string): Promise<CheckpointedPublisher> {
    return new CheckpointedPublisher(normalizer, jetstream(normalizer), await jetstreamManager(normalizer), EVENTS, subject, {
      copies: [tenantCopyCounter(normalizer, 'acme')],
      repairAfterMs: 60_000,
    });
  }

  /** finish() while acme's copy is away, the copy provisioned again half a second later. */
  async function finishWhileTheCopyComesBack(publisher: CheckpointedPublisher): Promise<FinishResult> {
    const finished = publisher.finish();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await (await jetstreamManager(acmeAdmin)).streams.add(tenantEventsStreamConfig('acme', DEFAULT_STREAM_OPTIONS));
    return finished;
  }

  it('counts a subject in the copy; a tenant without an account has no copy to prove', async () => {
    const subject = eventsSubject('acme', 'st_count');
    await jetstream(normalizer).publish(subject, '{}', { msgID: 'st_count:1' });
    const count = tenantCopyCounter(normalizer, 'acme');
    await expect(count(subject)).resolves.toBe(1);
    await expect(tenantCopyCounter(normalizer, 'nobody')(eventsSubject('nobody', 'st_x'))).resolves.toBe(Number.POSITIVE_INFINITY);
  });

  it('republishes an acked message (a terminal event) that the copy lacks', async () => {
    const acmeJsm = await jetstreamManager(acmeAdmin);
    const streamId = 'st_copy_acked';
    const subject = eventsSubject('acme', streamId);
    const publisher = await copyProvingPublisher(subject);
    publisher.publish(message(streamId, 1));
    await normalizer.flush();
    await acmeJsm.streams.delete(EVENTS);
    // The platform's stream acks it; the copy is away.
    await publisher.publishAcked(message(streamId, 2));
    const finished = finishWhileTheCopyComesBack(publisher);
    await expect(finished).resolves.toMatchObject({ published: 2, stored: 2 });
    expect((await acmeJsm.streams.info(EVENTS, { subjects_filter: subject })).state.subjects?.[subject]).toBe(2);
  });

  it('republishes what the copy lacks until it holds every event, even when the platform stream holds them all', async () => {
    const acmeJsm = await jetstreamManager(acmeAdmin);
    const streamId = 'st_copy_gap';
    const subject = eventsSubject('acme', streamId);
    const publisher = await copyProvingPublisher(subject);
    publisher.publish(message(streamId, 1));
    await normalizer.flush();
    // The copy goes away (as while a restarted server recovers it): events 2 and 3 reach the platform only.
    await acmeJsm.streams.delete(EVENTS);
    publisher.publish(message(streamId, 2));
    publisher.publish(message(streamId, 3));
    await normalizer.flush();
    const platform = await (await jetstreamManager(normalizer)).streams.info(EVENTS, { subjects_filter: subject });
    expect(platform.state.subjects?.[subject]).toBe(3);
    const finished = finishWhileTheCopyComesBack(publisher);
    const result = await finished;
    expect(result).toMatchObject({ published: 3, stored: 3 });
    expect(result.republished).toBeGreaterThanOrEqual(3);
    const copy = await acmeJsm.streams.info(EVENTS, { subjects_filter: subject });
    expect(copy.state.subjects?.[subject]).toBe(3);
  });
});
