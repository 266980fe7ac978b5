import { eventContentHash } from '../../src/check/event-content.js';
import type { FaultRecord } from '../../src/fault-kinds.js';
import type { AuditView, ClientRecord, RecordedRun, SeenEvent, ServedBody, StoredEvent } from '../../src/recorded-run.js';

/** Anthropic records of a clean one-block answer, as the replay provider would serve them. */
export const RECORDS = [
  'event: message_start\ndata: {"type":"message_start"}\n\n',
  'event: content_block_start\ndata: {"type":"content_block_start","index":0}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"text":"Hel"}}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"text":"lo"}}\n\n',
  'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n',
  'event: message_stop\ndata: {"type":"message_stop"}\n\n',
];

const T0 = 1_000_000;

/** The contract events of that answer. */
export function storedEvents(streamId: string): StoredEvent[] {
  const block = { id: `${streamId}.b0`, index: 0, kind: 'text' };
  return [
    { type: 'stream.start', seq: 1, stream_id: streamId },
    { type: 'block.start', seq: 2, stream_id: streamId, block },
    { type: 'block.delta', seq: 3, stream_id: streamId, block, delta: { kind: 'text', text: 'Hel' } },
    { type: 'block.delta', seq: 4, stream_id: streamId, block, delta: { kind: 'text', text: 'lo' } },
    { type: 'block.stop', seq: 5, stream_id: streamId, block },
    { type: 'stream.done', seq: 6, stream_id: streamId, status: 'completed', stop_reason: 'end_turn' },
  ];
}

/** `events` as a reader receives them: each with its content's fingerprint, 20 ms apart from `from`. */
export function seen(events: readonly StoredEvent[], from = T0 + 10): SeenEvent[] {
  return events.map((event, n) => ({ seq: event.seq, type: event.type, hash: eventContentHash(event), at: from + n * 20 }));
}

/** One stream that went perfectly: every reader saw every event, the audit has everything, nothing lost. */
export function cleanStream(n: number): { client: ClientRecord; served: ServedBody; stored: StoredEvent[]; audit: AuditView } {
  const streamId = `st_${n}`;
  const key = `sc_${n}`;
  const stored = storedEvents(streamId);
  const client: ClientRecord = {
    key,
    tenant: 'acme',
    workload: {
      kind: 'transcript',
      provider: 'anthropic',
      caseName: 'simple_text',
      expect: { terminal: 'completed', stop_reason_normalized: 'end_turn', blocks: [{ kind: 'text', text: 'Hello' }] },
    },
    burst: false,
    slowReader: false,
    startedAt: T0,
    endedAt: T0 + 200,
    streamId,
    requests: [{ kind: 'post', gateway: 'http://gw-1', at: T0, status: 200, error: null, events: stored.length }],
    events: seen(stored),
  };
  const served: ServedBody = { scenario: key, requestId: `req_${n}`, status: 200, startedAt: T0 + 5, endedAt: T0 + 150, outcome: 'ended', body: RECORDS.join('') };
  const raw = [
    { raw_seq: 1, attempt: null, kind: 'stream.open' },
    { raw_seq: 2, attempt: 1, kind: 'attempt.start' },
    { raw_seq: 3, attempt: 1, kind: 'upstream.response' },
    ...RECORDS.map((text, i) => ({ raw_seq: 4 + i, attempt: 1, kind: 'frame', text })),
    { raw_seq: 4 + RECORDS.length, attempt: 1, kind: 'attempt.end', reason: 'eof' },
  ];
  const audit: AuditView = { status: 'completed', gatewayId: 'gw-1', eventSeqs: stored.map((e) => e.seq), verifyOk: true, verifyDetail: '', raw };
  return { client, served, stored, audit };
}

/** A run of `count` clean streams and the given faults; `edit` then plants one defect. */
export function cleanRun(count = 3, faults: readonly FaultRecord[] = []): RecordedRun {
  const streams = Array.from({ length: count }, (_unused, n) => cleanStream(n + 1));
  return {
    seed: 1,
    startedAt: T0,
    endedAt: T0 + 1_000,
    faults,
    clients: streams.map((s) => s.client),
    served: streams.map((s) => s.served),
    backend: Object.fromEntries(streams.map((s) => [s.client.streamId, seen(s.stored, T0 + 12)])),
    stored: Object.fromEntries(streams.map((s) => [s.client.streamId, s.stored])),
    audit: Object.fromEntries(streams.map((s) => [s.client.streamId, s.audit])),
  };
}

export { T0 };
