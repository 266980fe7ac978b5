import type { JetStreamManager } from '@nats-io/jetstream';
import { storedMessageCount } from '@llm-stream/pipeline';
import { STREAM_NAMES, eventsSubject, rawSubject } from '@llm-stream/contract';
import { verifyChain } from '../../src/chain/hash-chain.js';
import type { SqlRunner } from '../../src/store/sql-backend.js';

/** Registers a replay-provider scenario that streams `frames` text deltas, one every `intervalMs`; returns its model name. */
export async function syntheticModel(replayUrl: string, frames: number, intervalMs: number): Promise<string> {
  const response = await fetch(`${replayUrl}/_replay/scenarios`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ responses: [{ synthetic: { frames, frame_interval_ms: intervalMs } }] }),
  });
  const { id } = (await response.json()) as { id: string };
  return `scenario:${id}`;
}

/** Messages LLM_EVENTS holds: how far the pipeline has got. */
export async function eventsPublished(jsm: JetStreamManager): Promise<number> {
  return (await jsm.streams.info(STREAM_NAMES.events)).state.messages;
}

/** A counter of the audit log's /metrics (0 while the process does not answer). */
export async function auditCounter(auditUrl: string, consumer: string, outcome: string): Promise<number> {
  try {
    const text = await (await fetch(`${auditUrl}/metrics`)).text();
    const pattern = new RegExp(`^llm_audit_messages_total\\{consumer="${consumer}",outcome="${outcome}"\\} (\\d+)$`, 'm');
    return Number(pattern.exec(text)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

export interface StoredCounts {
  readonly stream_id: string;
  readonly status: string;
  readonly rows: { events: number; lowest: number | null; highest: number | null; raw: number };
  readonly counters: { event_count: number; raw_count: number };
  readonly chain: boolean;
}

/** What the database holds for a stream, read with SQL. */
export async function storedCounts(sql: SqlRunner, streamId: string): Promise<StoredCounts | undefined> {
  const [stream] = await sql.all<{ status: string; event_count: number; raw_count: number; chain_seq: number; chain_hash: string }>(
    'SELECT status, event_count, raw_count, chain_seq, chain_hash FROM audit_streams WHERE stream_id = $1',
    [streamId],
  );
  if (stream === undefined) return undefined;
  const [events] = await sql.all<{ events: number; lowest: number | null; highest: number | null }>(
    'SELECT COUNT(*) AS events, MIN(seq) AS lowest, MAX(seq) AS highest FROM audit_events WHERE stream_id = $1',
    [streamId],
  );
  const [raw] = await sql.all<{ raw: number }>('SELECT COUNT(*) AS raw FROM audit_raw WHERE stream_id = $1', [streamId]);
  const rows = await sql.all<{ seq: number; body: string; content_hash: string; prev_hash: string | null; chain_hash: string | null }>(
    'SELECT seq, body, content_hash, prev_hash, chain_hash FROM audit_events WHERE stream_id = $1 ORDER BY seq',
    [streamId],
  );
  return {
    stream_id: streamId,
    status: stream.status,
    rows: { events: events?.events ?? 0, lowest: events?.lowest ?? null, highest: events?.highest ?? null, raw: raw?.raw ?? 0 },
    counters: { event_count: stream.event_count, raw_count: stream.raw_count },
    chain: verifyChain(rows, { seq: stream.chain_seq, hash: stream.chain_hash }).ok,
  };
}

/** What exactly-once storage of a stream looks like: every message JetStream holds for it, once, chained. */
export async function expectedCounts(jsm: JetStreamManager, tenant: string, streamId: string): Promise<Omit<StoredCounts, 'status'>> {
  const events = await storedMessageCount(jsm, STREAM_NAMES.events, eventsSubject(tenant, streamId));
  const raw = await storedMessageCount(jsm, STREAM_NAMES.raw, rawSubject(tenant, streamId));
  return {
    stream_id: streamId,
    rows: { events, lowest: 1, highest: events, raw },
    counters: { event_count: events, raw_count: raw },
    chain: true,
  };
}
