import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import type { ApiKeyPrincipal } from '@llm-stream/service-kit';
import {
  assemble,
  checkInvariants,
  isValidStreamId,
  type ContractEvent,
  type RawTrace,
  type RawTraceEntry,
  type StatsTimeline,
  type StreamDetail,
  type StreamList,
  type UnknownEvents,
  type VerifyReport,
} from '@llm-stream/contract';
import { canonicalJson } from '../chain/canonical-json.js';
import { verifyChain } from '../chain/hash-chain.js';
import { ApiError } from '../errors/api-error.js';
import type { AuditRepository, AuditStats, StoredStream } from '../store/audit-repository.js';
import { readOrUnavailable } from '../store/read-or-unavailable.js';
import { AUDIT_REPOSITORY } from '../store/store-tokens.js';
import { projectDetail, projectRawEntries, seesFullTruth } from './audit-view.js';
import { encodeCursor, parseDetailQuery, parseListQuery, parseRawQuery, parseStatsQuery, parseTimelineQuery } from './query-params.js';
import { replayPage, replayRawTrace, type ReplayedRecord } from './raw-replay.js';
import { ReplayCursors } from './raw-replay-cursors.js';

/**
 * The query API's behaviour; every call is one tenant's and sees nothing of another tenant's. The routes that
 * return content (detail, raw) answer a key that may not see reasoning with the projection of audit-view.ts;
 * list, stats and verify return no block content.
 */
@Injectable()
export class AuditQueryService {
  /** Where each paged raw trace's replay stopped, so that a live view's next page continues it. */
  private readonly cursors = new ReplayCursors();

  constructor(@Inject(AUDIT_REPOSITORY) private readonly repository: AuditRepository) {}

  async detail(principal: ApiKeyPrincipal, streamId: string, query: Readonly<Record<string, unknown>>): Promise<StreamDetail> {
    const parsed = parseDetailQuery(query);
    if (!parsed.ok) throw new ApiError(HttpStatus.BAD_REQUEST, 'invalid_request', parsed.error.message);
    const whole = await this.withStore(() => this.readDetail(principal.tenant, streamId));
    const detail = seesFullTruth(principal) ? whole : projectDetail(whole);
    const { afterSeq } = parsed.value;
    if (afterSeq === undefined) return detail;
    return {
      ...detail,
      events: detail.events.filter((event) => event.seq > afterSeq),
      event_times: detail.event_times.filter((time) => time.seq > afterSeq),
      events_after_seq: afterSeq,
    };
  }

  async raw(principal: ApiKeyPrincipal, streamId: string, query: Readonly<Record<string, unknown>>): Promise<RawTrace> {
    const parsed = parseRawQuery(query);
    if (!parsed.ok) throw new ApiError(HttpStatus.BAD_REQUEST, 'invalid_request', parsed.error.message);
    const { page } = parsed.value;
    const fullTruth = seesFullTruth(principal);
    if (page === undefined) {
      const raw = await this.withStore(() => this.readRaw(principal.tenant, streamId));
      return fullTruth ? raw : withheld(raw, raw.records.flatMap((entry) => entry.events));
    }
    // What a frame of a page may not show depends on the whole stream's reasoning: its stored events, read beside the page.
    const [raw, events] = await this.withStore(() => Promise.all([this.readRawPage(principal.tenant, streamId, page), fullTruth ? [] : this.storedEvents(streamId)]));
    return fullTruth ? raw : withheld(raw, events);
  }

  verify(tenant: string, streamId: string): Promise<VerifyReport> {
    return this.withStore(() => this.readVerify(tenant, streamId));
  }

  async list(tenant: string, query: Readonly<Record<string, unknown>>): Promise<StreamList> {
    const parsed = parseListQuery(query);
    if (!parsed.ok) throw new ApiError(HttpStatus.BAD_REQUEST, 'invalid_request', parsed.error.message);
    const page = await this.withStore(() => this.repository.listStreams(tenant, parsed.value.filter, parsed.value.page));
    return { streams: page.streams, next_cursor: page.next === undefined ? null : encodeCursor(page.next) };
  }

  async stats(tenant: string, query: Readonly<Record<string, unknown>>): Promise<AuditStats & { from: number | null; to: number | null }> {
    const parsed = parseStatsQuery(query);
    if (!parsed.ok) throw new ApiError(HttpStatus.BAD_REQUEST, 'invalid_request', parsed.error.message);
    const stats = await this.withStore(() => this.repository.stats(tenant, parsed.value));
    return { from: parsed.value.from ?? null, to: parsed.value.to ?? null, ...stats };
  }

  async timeline(tenant: string, query: Readonly<Record<string, unknown>>): Promise<StatsTimeline> {
    const parsed = parseTimelineQuery(query);
    if (!parsed.ok) throw new ApiError(HttpStatus.BAD_REQUEST, 'invalid_request', parsed.error.message);
    const { from, to, bucketMs } = parsed.value;
    const buckets = await this.withStore(() => this.repository.statsTimeline(tenant, { from, to }, bucketMs));
    return { from, to, bucket_ms: bucketMs, buckets };
  }

  async unknownEvents(tenant: string, query: Readonly<Record<string, unknown>>): Promise<UnknownEvents> {
    const parsed = parseStatsQuery(query);
    if (!parsed.ok) throw new ApiError(HttpStatus.BAD_REQUEST, 'invalid_request', parsed.error.message);
    const groups = await this.withStore(() => this.repository.unknownEvents(tenant, parsed.value));
    return { from: parsed.value.from ?? null, to: parsed.value.to ?? null, groups };
  }

  private async readDetail(tenant: string, streamId: string): Promise<StreamDetail> {
    // Both reads at once (one round trip of latency); the events are returned only if the tenant owns the stream.
    const [stored, rows] = await Promise.all([this.requireStream(tenant, streamId), ofValidStream(streamId, () => this.repository.events(streamId))]);
    const events = rows.map((row) => JSON.parse(row.body) as ContractEvent);
    const result = assemble(events);
    return {
      stream: stored.record,
      result,
      draft: result.status !== 'completed',
      tool_calls: result.blocks.filter((block) => block.kind === 'tool_call'),
      events,
      event_times: rows.map((row) => ({ seq: row.seq, ts: row.ts, js_time: row.js_time })),
      ...(stored.prompt !== null && { prompt: JSON.parse(stored.prompt) as unknown }),
    };
  }

  private async readRaw(tenant: string, streamId: string): Promise<RawTrace> {
    const [, records, storedEvents] = await Promise.all([
      this.requireStream(tenant, streamId),
      ofValidStream(streamId, () => this.repository.rawRecords(streamId)),
      ofValidStream(streamId, () => this.repository.events(streamId)),
    ]);
    const replayed = replayRawTrace(records);
    const entries = replayed.map(rawTraceEntry);
    const replayedBodies = replayed.flatMap(({ events }) => events.map((event) => canonicalJson(event)));
    const storedBodies = storedEvents.map((row) => canonicalJson(JSON.parse(row.body)));
    const length = Math.max(replayedBodies.length, storedBodies.length);
    let firstDifference: number | null = null;
    for (let index = 0; index < length && firstDifference === null; index += 1) {
      if (replayedBodies[index] !== storedBodies[index]) firstDifference = index + 1;
    }
    return {
      stream_id: streamId,
      records: entries,
      replay: { events: replayedBodies.length, matches_stored: firstDifference === null, first_difference_seq: firstDifference },
    };
  }

  /**
   * A page of the trace in LLM_RAW order, each record with the events it produced: the replay continues the
   * cursor a previous page left (a live view reads only what is new), or starts over. No replay summary: a page
   * is not a whole trace to check against the stored events.
   */
  private async readRawPage(tenant: string, streamId: string, page: { readonly afterJsSeq: number; readonly limit: number }): Promise<RawTrace> {
    const cursor = this.cursors.take(streamId, page.afterJsSeq);
    const [, records] = await Promise.all([this.requireStream(tenant, streamId), ofValidStream(streamId, () => this.repository.rawRecords(streamId, cursor.lastJsSeq))]);
    const replayed = replayPage(cursor, records, page.afterJsSeq, page.limit);
    this.cursors.put(streamId, cursor);
    return {
      stream_id: streamId,
      records: replayed.records.map(rawTraceEntry),
      page: { after_js_seq: page.afterJsSeq, last_js_seq: replayed.records.at(-1)?.stored.js_seq ?? page.afterJsSeq, more: replayed.more },
    };
  }

  private async storedEvents(streamId: string): Promise<ContractEvent[]> {
    const rows = await ofValidStream(streamId, () => this.repository.events(streamId));
    return rows.map((row) => JSON.parse(row.body) as ContractEvent);
  }

  private async readVerify(tenant: string, streamId: string): Promise<VerifyReport> {
    const [stored, rows] = await Promise.all([this.requireStream(tenant, streamId), ofValidStream(streamId, () => this.repository.events(streamId))]);
    const values = rows.map((row): unknown => {
      try {
        return JSON.parse(row.body) as unknown;
      } catch {
        return null;
      }
    });
    const partial = stored.record.status === 'running';
    const violations = checkInvariants(values, { partial });
    const chain = verifyChain(rows, stored.chain);
    return {
      stream_id: streamId,
      ok: violations.length === 0 && chain.ok,
      invariants: { ok: violations.length === 0, partial, violations },
      chain: { ok: chain.ok, events: rows.length, verified: chain.verified, head: stored.chain, first_broken: chain.first_broken },
    };
  }

  /** A failure of the database itself is a 503 (try again), not a 500. */
  private withStore<T>(read: () => Promise<T>): Promise<T> {
    return readOrUnavailable(this.repository, read);
  }

  /** 404 unless the tenant has the stream: another tenant's stream is indistinguishable from none. */
  private async requireStream(tenant: string, streamId: string): Promise<StoredStream> {
    const stored = isValidStreamId(streamId) ? await this.repository.findStream(tenant, streamId) : undefined;
    if (stored === undefined) throw new ApiError(HttpStatus.NOT_FOUND, 'not_found', `no stream ${streamId}`);
    return stored;
  }
}

/**
 * The rows `read` returns for a well-formed stream id, none for another: each read runs beside requireStream,
 * which answers 404 for such an id, so the store is never asked about it.
 */
async function ofValidStream<T>(streamId: string, read: () => Promise<readonly T[]>): Promise<readonly T[]> {
  return isValidStreamId(streamId) ? read() : [];
}

/** A raw trace as a key that may not see reasoning gets it, given the stream's events. */
function withheld(raw: RawTrace, events: readonly ContractEvent[]): RawTrace {
  return { ...raw, records: projectRawEntries(raw.records, { events, result: assemble(events) }) };
}

/** A replayed record as the raw route shows it: a frame's exact text, or another record's fields. */
function rawTraceEntry({ stored, record, events }: ReplayedRecord): RawTraceEntry {
  const base = { raw_seq: stored.raw_seq, attempt: stored.attempt === 0 ? null : stored.attempt, kind: stored.kind, ts: stored.ts, redacted: stored.redacted };
  const isFrame = stored.kind === 'frame' || stored.kind === 'frame.partial';
  return isFrame ? { ...base, text: stored.body, events } : { ...base, ...(record !== null && { record }), events };
}
