import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@llm-stream/testing';
import { startAuthorizedNats, type AuthorizedNats } from './support/authorized-nats.js';
import { getJson } from './support/http.js';
import { auditBacklog, openJetStream, publishStream, type JetStreamSession } from './support/jetstream.js';
import { startAudit, type Service } from './support/services.js';
import { newStreamId, transcriptStream } from './support/stream-fixtures.js';
import { ACME, API_KEYS } from './support/tenants.js';

const DAY_MS = 86_400_000;

describe('retention', () => {
  let nats: AuthorizedNats;
  let session: JetStreamSession;
  let audit: Service;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'audit-retention-'));
    nats = await startAuthorizedNats();
    session = await openJetStream(await nats.connectAs('provisioner'));
    audit = await startAudit({
      ...nats.serviceEnv('audit-log'),
      GATEWAY_API_KEYS: API_KEYS,
      AUDIT_SQLITE_PATH: join(dir, 'audit.sqlite'),
      AUDIT_RETENTION_DAYS: '2',
      AUDIT_RETENTION_INTERVAL_MS: '1000',
    });
  });

  afterAll(async () => {
    await audit.stop();
    await session.close();
    await nats.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('deletes the streams that started before AUDIT_RETENTION_DAYS, with their events and raw trace, and keeps the others', async () => {
    const old = transcriptStream('anthropic', 'simple_text', { streamId: newStreamId(), tenant: ACME.tenant, startTs: Date.now() - 3 * DAY_MS });
    const recent = transcriptStream('anthropic', 'simple_text', { streamId: newStreamId(), tenant: ACME.tenant, startTs: Date.now() - DAY_MS });
    await publishStream(session.js, old);
    await publishStream(session.js, recent);
    const status = async (streamId: string): Promise<number> => (await getJson(`${audit.url}/v1/streams/${streamId}`, ACME.key)).status;
    await waitFor(
      async () => {
        const metrics = await (await fetch(`${audit.url}/metrics`)).text();
        const deleted = Number(/^llm_audit_retention_deleted_streams_total (\d+)$/m.exec(metrics)?.[1] ?? 0);
        return deleted >= 1 && (await auditBacklog(session.jsm)) === 0 && (await status(old.streamId)) === 404 && (await status(recent.streamId)) === 200;
      },
      { timeoutMs: 20_000, description: 'the old stream to be deleted by a retention sweep' },
    );
    expect((await getJson<{ streams: { stream_id: string }[] }>(`${audit.url}/v1/streams`, ACME.key)).body.streams.map((row) => row.stream_id)).toEqual([recent.streamId]);
  });
});
