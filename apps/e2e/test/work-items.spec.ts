import { STREAM_NAMES, encodeWorkItem, workSubject } from '@llm-stream/contract';
import { storedMessageCount } from '@llm-stream/pipeline';
import { waitFor } from '@llm-stream/testing';
import { startPipeline, type Pipeline } from './support/pipeline.js';

/**
 * Work items nobody can finish must leave the work queue for good: a normalizer terminates them. nats-server
 * 2.9 ignores a terminate that carries a reason (the item would stay in the work-queue stream, pending, and
 * come back after every ack wait), so this is checked against the real server: the item leaves the stream.
 */
describe('work items that cannot be normalized', () => {
  let pipeline: Pipeline;

  beforeAll(async () => {
    pipeline = await startPipeline();
  });

  afterAll(async () => {
    await pipeline.stop();
  });

  const pending = (subject: string): Promise<number> => storedMessageCount(pipeline.jsm, STREAM_NAMES.work, subject);

  it('terminates an item that is not a work item at all', async () => {
    const subject = workSubject('acme', 'st_not_a_work_item');
    await pipeline.nc.request(subject, '{"stream_id": 42', { timeout: 5_000 });
    await waitFor(async () => (await pending(subject)) === 0, { timeoutMs: 15_000, description: 'the invalid item to leave the queue' });
    const consumer = await pipeline.jsm.consumers.info(STREAM_NAMES.work, 'normalizers');
    expect(consumer.num_redelivered).toBe(0);
  });

  it('terminates the item of a stream whose raw trace never opened, once its gateway is gone', async () => {
    const subject = workSubject('acme', 'st_no_raw_trace');
    const item = encodeWorkItem({ stream_id: 'st_no_raw_trace', tenant: 'acme', provider: 'anthropic', model: 'simple_text', gateway_id: 'gw-never-existed' });
    await pipeline.nc.request(subject, item, { timeout: 5_000 });
    await waitFor(async () => (await pending(subject)) === 0, { timeoutMs: 30_000, description: 'the unfinishable item to leave the queue' });
  });
});
