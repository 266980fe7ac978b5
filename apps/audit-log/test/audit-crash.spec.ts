import { join } from 'node:path';
import { waitFor } from '@llm-stream/testing';
import { AUDIT_CONSUMERS } from '../src/ingestion/audit-consumers.js';
import { SqliteBackend } from '../src/store/sqlite/sqlite-backend.js';
import { auditBacklog } from './support/jetstream.js';
import { auditCounter, eventsPublished, expectedCounts, storedCounts, syntheticModel } from './support/load.js';
import { startPipeline, streamThroughGateway, type Pipeline } from './support/pipeline.js';
import { startAudit, type Service } from './support/services.js';
import { ACME } from './support/tenants.js';

const STREAMS = 100;

describe('the audit log killed (SIGKILL) while 100 streams run, on SQLite', () => {
  let pipeline: Pipeline;
  let audit: Service;
  let env: Record<string, string>;

  beforeAll(async () => {
    pipeline = await startPipeline();
    env = {
      ...pipeline.auditEnv,
      AUDIT_SQLITE_PATH: join(pipeline.dir, 'audit.sqlite'),
      TRACE_EXPORTER: 'none',
      // Unacked messages of the killed process come back after this long.
      AUDIT_ACK_WAIT_MS: '3000',
    };
    audit = await startAudit(env);
  });

  afterAll(async () => {
    await audit.stop();
    await pipeline.stop();
  });

  it('stores every event of every stream exactly once after a restart', async () => {
    const { jsm } = pipeline.jetstream;
    const model = await syntheticModel(pipeline.replay.url, 150, 20);
    const before = await eventsPublished(jsm);
    const clients = Promise.all(Array.from({ length: STREAMS }, () => streamThroughGateway(pipeline.gateway.url, ACME.key, 'openai-chat', model, 120_000)));

    // Kill it mid-ingestion: streams are running and it has stored part of them.
    await waitFor(async () => (await eventsPublished(jsm)) >= before + 1_000 && (await auditCounter(audit.url, AUDIT_CONSUMERS.events, 'stored')) > 0, {
      timeoutMs: 60_000,
      description: 'the pipeline to run and the audit log to store',
    });
    await audit.kill();
    const atKill = await eventsPublished(jsm);
    await waitFor(async () => (await eventsPublished(jsm)) >= atKill + 3_000, { timeoutMs: 60_000, description: 'a few thousand more events' });
    audit = await startAudit(env);

    const streams = await clients;
    expect(new Set(streams.map((stream) => stream.streamId)).size).toBe(STREAMS);
    expect(streams.every((stream) => stream.events.at(-1)?.type === 'stream.done')).toBe(true);
    await waitFor(async () => (await auditBacklog(jsm)) === 0, { timeoutMs: 60_000, description: 'the audit log to catch up' });

    const inspector = new SqliteBackend(env['AUDIT_SQLITE_PATH'] ?? '');
    try {
      for (const { streamId } of streams) {
        const stored = await storedCounts(inspector.reader, streamId);
        expect(stored).toEqual({ ...(await expectedCounts(jsm, ACME.tenant, streamId)), status: 'completed' });
      }
    } finally {
      await inspector.close();
    }
  });
});
