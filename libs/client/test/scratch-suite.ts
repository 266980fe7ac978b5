import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { ensurePipelineStreams } from '@llm-stream/pipeline';
import { startNatsServer, type NatsServerHandle } from '@llm-stream/testing';

/** What a suite that runs code outside the workspace gets: a real nats-server with the pipeline's streams, and a scratch folder. */
export interface ScratchSuite {
  readonly server: NatsServerHandle;
  readonly nc: NatsConnection;
  readonly jsm: JetStreamManager;
  /** A fresh folder under the system's temp dir (outside the workspace), removed after the suite. */
  readonly scratch: string;
}

/** Starts them in the calling suite's beforeAll and stops them in its afterAll; call the result inside a test. */
export function scratchSuite(prefix: string): () => ScratchSuite {
  let suite: ScratchSuite | undefined;
  beforeAll(async () => {
    const server = await startNatsServer();
    const nc = await connect({ servers: server.url });
    const jsm = await jetstreamManager(nc);
    await ensurePipelineStreams(jsm);
    suite = { server, nc, jsm, scratch: mkdtempSync(join(tmpdir(), prefix)) };
  });
  afterAll(async () => {
    if (suite === undefined) return;
    await suite.nc.close();
    await suite.server.stop();
    rmSync(suite.scratch, { recursive: true, force: true });
  });
  return () => {
    if (suite === undefined) throw new Error('the scratch suite has not started (call it inside a test)');
    return suite;
  };
}
