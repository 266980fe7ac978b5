import type { ContractEvent } from '@llm-stream/contract';
import { waitFor } from '@llm-stream/testing';
import { sequenceProblems, terminalOf } from './support/event-checks.js';
import { openStream, postStream, readSseStream, readUntil, resumeStream, type GatewayReply } from './support/gateway-client.js';
import { startPipeline, type Pipeline } from './support/pipeline.js';
import { readRawTrace } from './support/raw-trace.js';
import { registerScenario } from './support/replay-control.js';
import type { RunningService } from './support/services.js';

const STREAMS = 50;

/** Stream ids a normalizer logged as owned and has not finished (by its JSON log lines). */
function ownedStreams(service: RunningService): Set<string> {
  const owned = new Set<string>();
  for (const line of service.process.lines) {
    if (!line.startsWith('{')) continue;
    const entry = JSON.parse(line) as { msg?: string; stream_id?: string };
    if (entry.stream_id === undefined) continue;
    if (entry.msg === 'stream owned' || entry.msg === 'stream taken over') owned.add(entry.stream_id);
    if (entry.msg === 'stream completed' || entry.msg?.startsWith('stream ') === true) {
      if (entry.msg !== 'stream owned' && entry.msg !== 'stream taken over') owned.delete(entry.stream_id);
    }
  }
  return owned;
}

function logged(service: RunningService, msg: string): string[] {
  return service.process.lines.filter((line) => line.includes(`"msg":"${msg}"`));
}

describe('crashes (kill -9)', () => {
  let pipeline: Pipeline;

  beforeAll(async () => {
    pipeline = await startPipeline({ normalizers: 3, gateways: 2 });
  });

  afterAll(async () => {
    await pipeline.stop();
  });

  it(`of one of three normalizer replicas during ${String(STREAMS)} concurrent streams: every stream completes, gapless and duplicate-free`, async () => {
    const scenario = await registerScenario(pipeline.replay.url, { responses: [{ synthetic: { frames: 40, frame_interval_ms: 50 } }] });
    const body = { model: `scenario:${scenario}`, max_tokens: 64, messages: [] };
    const replies: Promise<GatewayReply>[] = Array.from({ length: STREAMS }, (_unused, n) =>
      postStream(pipeline.gateways[n % 2]!.url, 'anthropic', body, { timeoutMs: 60_000 }),
    );
    // Kill the busiest replica once the streams are spread and under way.
    const victim = await waitFor(
      () => {
        const busiest = [...pipeline.normalizers].sort((a, b) => ownedStreams(b).size - ownedStreams(a).size)[0]!;
        const total = pipeline.normalizers.reduce((sum, service) => sum + ownedStreams(service).size, 0);
        return total >= STREAMS / 2 && ownedStreams(busiest).size >= 3 ? busiest : undefined;
      },
      { timeoutMs: 20_000, description: 'the streams to be owned by the replicas' },
    );
    const orphaned = ownedStreams(victim);
    await victim.process.kill();

    const settled = await Promise.all(replies);
    for (const reply of settled) {
      expect(reply.status).toBe(200);
      expect({ stream: reply.streamId, problems: sequenceProblems(reply.events) }).toStrictEqual({ stream: reply.streamId, problems: [] });
      expect(terminalOf(reply.events)).toMatchObject({ type: 'stream.done' });
      // A backend on the tenant wildcard sees the same sequence, each event once.
      expect(await pipeline.acmeEvents.waitForTerminal(reply.streamId!)).toStrictEqual(reply.events);
    }
    // The victim's unfinished streams were finished by the others ('taken over' when the victim had stored
    // some of their events, 'owned' when it died before storing any).
    const survivors = pipeline.normalizers.filter((service) => service !== victim);
    const finishedBySurvivors = new Set(
      survivors.flatMap((service) =>
        [...logged(service, 'stream taken over'), ...logged(service, 'stream owned')].map(
          (line) => (JSON.parse(line) as { stream_id: string }).stream_id,
        ),
      ),
    );
    expect(orphaned.size).toBeGreaterThan(0);
    for (const streamId of orphaned) expect(finishedBySurvivors).toContain(streamId);
  });

  it('of the gateway holding the upstream: the stream ends interrupted (transport_interrupted) for NATS subscribers, and the rest can be resumed elsewhere', async () => {
    const victim = pipeline.gateways[1]!;
    const scenario = await registerScenario(pipeline.replay.url, { responses: [{ synthetic: { frames: 2_000, frame_interval_ms: 20 } }] });
    const response = await openStream(victim.url, 'anthropic', { model: `scenario:${scenario}`, max_tokens: 64, messages: [] });
    const streamId = response.headers.get('x-stream-id')!;
    const seen = await readUntil(
      readSseStream(response)[Symbol.asyncIterator](),
      (event) => event.type === 'block.delta' && event.seq >= 5,
    );
    await victim.process.kill();

    // Bounded by the lease timeout (1 s here) plus one ownership check (a third of the 1.5 s ack wait).
    const onNats: readonly ContractEvent[] = await pipeline.acmeEvents.waitForTerminal(streamId, 10_000);
    expect(sequenceProblems(onNats)).toStrictEqual([]);
    expect(terminalOf(onNats)).toMatchObject({
      type: 'stream.error',
      status: 'interrupted',
      error: { category: 'transport_interrupted', message: 'the gateway holding the upstream connection stopped renewing its lease' },
    });
    expect(onNats.slice(0, seen.length)).toStrictEqual(seen);
    const trace = await readRawTrace(pipeline.nc, pipeline.jsm, 'acme', streamId);
    // The instance id: GATEWAY_ID and the random part of this process's start.
    expect(trace.at(-1)).toMatchObject({ kind: 'gateway.lost', gateway_id: expect.stringMatching(new RegExp(`^${victim.name}@[0-9a-f]{8}$`)) as unknown, raw_seq: 0 });

    const rest = await resumeStream(pipeline.gatewayUrl, streamId, seen.at(-1)!.seq);
    expect([...seen, ...rest.events]).toStrictEqual(onNats);
  });

  it("of a gateway whose GATEWAY_ID another process takes at once (a container restarted in its pod): the dead instance's streams still end interrupted", async () => {
    const victim = await pipeline.addGateway();
    const scenario = await registerScenario(pipeline.replay.url, { responses: [{ synthetic: { frames: 2_000, frame_interval_ms: 20 } }] });
    const response = await openStream(victim.url, 'anthropic', { model: `scenario:${scenario}`, max_tokens: 64, messages: [] });
    const streamId = response.headers.get('x-stream-id')!;
    await readUntil(readSseStream(response)[Symbol.asyncIterator](), (event) => event.type === 'block.delta' && event.seq >= 5);
    // The successor runs before the victim dies, so no moment passes without a lease renewed under that
    // GATEWAY_ID: a lease keyed by GATEWAY_ID alone would stay alive and the stream would never end.
    const successor = await pipeline.addGateway({ GATEWAY_ID: victim.name });
    await victim.process.kill();

    const onNats: readonly ContractEvent[] = await pipeline.acmeEvents.waitForTerminal(streamId, 15_000);
    expect(terminalOf(onNats)).toMatchObject({ type: 'stream.error', status: 'interrupted', error: { category: 'transport_interrupted' } });
    const trace = await readRawTrace(pipeline.nc, pipeline.jsm, 'acme', streamId);
    const opened = trace[0];
    if (opened?.kind !== 'stream.open') throw new Error('the raw trace does not start with stream.open');
    expect(opened.gateway_id).toMatch(new RegExp(`^${victim.name}@[0-9a-f]{8}$`));
    expect(trace.at(-1)).toMatchObject({ kind: 'gateway.lost', gateway_id: opened.gateway_id, raw_seq: 0 });
    // The successor serves new streams under the same name, as another instance.
    const reply = await postStream(successor.url, 'anthropic', { model: 'simple_text', max_tokens: 64, messages: [] });
    expect(terminalOf(reply.events)).toMatchObject({ type: 'stream.done' });
    const [successorOpen] = await readRawTrace(pipeline.nc, pipeline.jsm, 'acme', reply.streamId!);
    if (successorOpen?.kind !== 'stream.open') throw new Error('the raw trace does not start with stream.open');
    expect(successorOpen.gateway_id).toMatch(new RegExp(`^${victim.name}@[0-9a-f]{8}$`));
    expect(successorOpen.gateway_id).not.toBe(opened.gateway_id);
  });
});
