import { startPostgres, waitFor, type PostgresHandle } from '@llm-stream/testing';
import { AUDIT_CONSUMERS } from '../src/ingestion/audit-consumers.js';
import { PostgresBackend } from '../src/store/postgres/postgres-backend.js';
import { getJson } from './support/http.js';
import { auditBacklog } from './support/jetstream.js';
import { auditCounter, eventsPublished, expectedCounts, storedCounts, syntheticModel } from './support/load.js';
import { startPipeline, streamThroughGateway, type Pipeline } from './support/pipeline.js';
import { startAudit, type Service } from './support/services.js';
import { ACME } from './support/tenants.js';

const STREAMS = 100;

describe('PostgreSQL crashed and restarted while the audit log ingests 100 streams', () => {
  let pipeline: Pipeline;
  let postgres: PostgresHandle;
  let databaseUrl: string;
  let audit: Service;

  beforeAll(async () => {
    pipeline = await startPipeline();
    // A private cluster: this test kills it.
    postgres = await startPostgres();
    databaseUrl = await postgres.createDatabase();
    audit = await startAudit({ ...pipeline.auditEnv, AUDIT_DATABASE_URL: databaseUrl, TRACE_EXPORTER: 'none', AUDIT_ACK_WAIT_MS: '3000', AUDIT_LAG_POLL_INTERVAL_MS: '250' });
  });

  afterAll(async () => {
    await audit.stop();
    await pipeline.stop();
    await postgres.stop();
  });

  it('pauses while the database is away, reports not ready, resumes alone and stores everything exactly once', async () => {
    const { jsm } = pipeline.jetstream;
    const model = await syntheticModel(pipeline.replay.url, 150, 20);
    const before = await eventsPublished(jsm);
    const clients = Promise.all(Array.from({ length: STREAMS }, () => streamThroughGateway(pipeline.gateway.url, ACME.key, 'anthropic', model, 120_000)));

    await waitFor(async () => (await eventsPublished(jsm)) >= before + 1_000 && (await auditCounter(audit.url, AUDIT_CONSUMERS.events, 'stored')) > 0, {
      timeoutMs: 60_000,
      description: 'the pipeline to run and the audit log to store',
    });
    await postgres.kill();
    const notReady = await waitFor(
      async () => {
        const ready = await getJson<{ checks?: Record<string, string> }>(`${audit.url}/health/ready`);
        return ready.status === 503 && ready.body.checks?.['ingestion']?.startsWith('waiting for the store') === true ? ready : undefined;
      },
      { timeoutMs: 30_000, description: 'the audit log to report the store away' },
    );
    expect(notReady.body.checks?.['database']).not.toBe('ok');
    const atKill = await eventsPublished(jsm);
    await waitFor(async () => (await eventsPublished(jsm)) >= atKill + 2_000, { timeoutMs: 60_000, description: 'more events while the database is away' });
    // The lag is reported while JetStream holds the work: what was published since the kill, not acked, and its age.
    const eventsLag = async (): Promise<{ status: number; held: number; age: number }> => {
      const ready = await getJson<{ ingestion_lag?: Record<string, { undelivered?: number; unacked?: number; oldest_age_ms?: number }> }>(`${audit.url}/health/ready`);
      const lag = ready.body.ingestion_lag?.[AUDIT_CONSUMERS.events];
      return { status: ready.status, held: (lag?.undelivered ?? 0) + (lag?.unacked ?? 0), age: lag?.oldest_age_ms ?? 0 };
    };
    await waitFor(async () => {
      const lag = await eventsLag();
      return lag.status === 503 && lag.held >= 2_000 && lag.age > 0;
    }, { timeoutMs: 10_000, description: 'the readiness probe to show the held events and their age' });

    await postgres.restart();
    await waitFor(async () => (await getJson(`${audit.url}/health/ready`)).status === 200, { timeoutMs: 30_000, description: 'the audit log to be ready again' });

    const streams = await clients;
    expect(new Set(streams.map((stream) => stream.streamId)).size).toBe(STREAMS);
    await waitFor(async () => (await auditBacklog(jsm)) === 0, { timeoutMs: 60_000, description: 'the audit log to catch up' });
    await waitFor(async () => {
      const lag = await eventsLag();
      return lag.status === 200 && lag.held === 0 && lag.age === 0;
    }, { timeoutMs: 10_000, description: 'the reported lag to be gone' });

    const inspector = new PostgresBackend(databaseUrl, { poolSize: 1, onIdleError: () => undefined });
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
