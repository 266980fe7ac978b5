import {
  ReplayTally,
  replayCheck,
  type ChangedStream,
  type ProviderAdapterFactory,
  type ReplayReport,
  type ReplayVerdict,
  type StreamReplay,
  type UnreplayableStream,
} from '@llm-stream/adapters';
import { assemble, isValidStreamId, type ContractEvent, type StoredTrace, type StoredTracePage, type StreamRecord, type TraceRecord } from '@llm-stream/contract';
import { ApiError } from '../errors/api-error.js';
import { encodeCursor } from '../query/query-params.js';
import { toTraceRecord } from '../query/raw-replay.js';
import type { AuditRepository } from '../store/audit-repository.js';
import { readOrUnavailable } from '../store/read-or-unavailable.js';
import { parseReplayQuery } from './replay-params.js';

/** Streams of a page read from the store at once (two reads each: events and raw records). */
const CONCURRENCY = 16;

interface Read {
  readonly stream: StreamRecord;
  readonly events: ContractEvent[];
  readonly records: (TraceRecord | null)[];
  readonly redacted: boolean;
}

interface Replayed extends Read {
  readonly verdict: ReplayVerdict;
}

/**
 * The replay check of the audit API: stored raw traces re-normalized with the adapters it is given (this
 * build's registry, as ReplayModule provides it) and compared with the stored outcome by the adapters lib's
 * replay check, the code `llm-stream replay` runs. A plain class over the repository, so that a test can build
 * it over a store filled by the real pipeline with a deliberately changed adapter: the running service has no
 * switch that changes its adapters. Nest-free (statuses as numbers), so that the test loads it as it is.
 */
export class ReplayService {
  constructor(
    private readonly repository: AuditRepository,
    private readonly createAdapter: ProviderAdapterFactory,
  ) {}

  async stream(tenant: string, streamId: string): Promise<StreamReplay> {
    return readOrUnavailable(this.repository, async () => {
      const stored = isValidStreamId(streamId) ? await this.repository.findStream(tenant, streamId) : undefined;
      if (stored === undefined) throw new ApiError(404, 'not_found', `no stream ${streamId}`);
      const { stream, events, verdict, redacted } = await this.replay(stored.record);
      return {
        stream_id: stream.stream_id,
        provider: stream.provider,
        model: stream.model,
        stored: verdict.kind === 'replayed' ? verdict.stored : assemble(events),
        replayed: verdict.kind === 'replayed' ? verdict.replayed : null,
        changes: verdict.kind === 'replayed' ? verdict.changes : [],
        unreplayable: verdict.kind === 'unreplayable' ? verdict.reason : null,
        redacted,
      };
    });
  }

  async page(tenant: string, query: Readonly<Record<string, unknown>>): Promise<ReplayReport> {
    const listed = await this.readPage(tenant, query);
    const tally = new ReplayTally();
    const changed: ChangedStream[] = [];
    const unreplayable: UnreplayableStream[] = [];
    for (const { stream, verdict, redacted } of listed.streams.map((read) => this.replayRead(read))) {
      tally.add(stream.provider, verdict);
      const { stream_id, provider, model } = stream;
      if (verdict.kind === 'unreplayable') unreplayable.push({ stream_id, provider, reason: verdict.reason });
      else if (verdict.changes.length > 0) changed.push({ stream_id, provider, model, redacted, changes: verdict.changes });
    }
    return { counts: tally.counts(), by_provider: Object.fromEntries(tally.byProvider()), changed, unreplayable, next_cursor: listed.next_cursor };
  }

  /** A page of stored traces, for a replay on the caller's side with its own adapters. */
  async traces(tenant: string, query: Readonly<Record<string, unknown>>): Promise<StoredTracePage> {
    const listed = await this.readPage(tenant, query);
    const streams = listed.streams.map(({ stream, events, records, redacted }): StoredTrace => {
      const { stream_id, provider, model, status } = stream;
      return { stream_id, provider, model, status, redacted, events, records };
    });
    return { streams, next_cursor: listed.next_cursor };
  }

  /** One page of the list route's streams (its filters, its 400s), each read with its events and raw trace. */
  private async readPage(tenant: string, query: Readonly<Record<string, unknown>>): Promise<{ streams: Read[]; next_cursor: string | null }> {
    const parsed = parseReplayQuery(query);
    if (!parsed.ok) throw new ApiError(400, 'invalid_request', parsed.error.message);
    const { filter, page } = parsed.value;
    return readOrUnavailable(this.repository, async () => {
      const listed = await this.repository.listStreams(tenant, filter, page);
      const streams: Read[] = [];
      for (let start = 0; start < listed.streams.length; start += CONCURRENCY) {
        streams.push(...(await Promise.all(listed.streams.slice(start, start + CONCURRENCY).map((stream) => this.read(stream)))));
      }
      return { streams, next_cursor: listed.next === undefined ? null : encodeCursor(listed.next) };
    });
  }

  private async replay(stream: StreamRecord): Promise<Replayed> {
    return this.replayRead(await this.read(stream));
  }

  private replayRead(read: Read): Replayed {
    const running = read.stream.status === 'running';
    return { ...read, verdict: replayCheck({ running, records: read.records, events: read.events }, { createAdapter: this.createAdapter }) };
  }

  private async read(stream: StreamRecord): Promise<Read> {
    const [rows, raw] = await Promise.all([this.repository.events(stream.stream_id), this.repository.rawRecords(stream.stream_id)]);
    const events = rows.map((row) => JSON.parse(row.body) as ContractEvent);
    return { stream, events, records: raw.map(toTraceRecord), redacted: raw.some((record) => record.redacted) };
  }
}
