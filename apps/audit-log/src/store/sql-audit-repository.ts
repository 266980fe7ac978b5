import { isTerminalEvent, type StatsBucket, type StreamStatus, type UnknownEventGroup } from '@llm-stream/contract';
import type {
  AuditRepository,
  AuditStats,
  EventIngestResult,
  IncomingEvent,
  IncomingRaw,
  PageRequest,
  RawIngestResult,
  StoredEvent,
  StoredRawRecord,
  StoredStream,
  StreamFilter,
  StreamPage,
  TimeRange,
} from './audit-repository.js';
import { planStreamEvents, type UnlinkedEvent } from './event-ingest-plan.js';
import type { EventLink, EventRow, RawRow, StoreBackend, StoreWriter } from './sql-backend.js';
import { applyEvents, applyRaw } from './stream-merge.js';
import { RECORD_SELECT, listStreamsQuery, statsQuery, unknownTypesQuery } from './stream-queries.js';
import { timelineBuckets, timelineQuery, unknownEventGroups, unknownEventsQuery } from './stats-over-time.js';
import { newStreamRow, toStreamRecord, type RecordRow, type StreamRow } from './stream-record.js';

interface StreamGroup<T> {
  readonly tenant: string;
  readonly items: T[];
  startedAt: number;
}

function groupByStream<T>(items: readonly T[], key: (item: T) => { streamId: string; tenant: string; ts: number }): Map<string, StreamGroup<T>> {
  const groups = new Map<string, StreamGroup<T>>();
  for (const item of items) {
    const { streamId, tenant, ts } = key(item);
    const group = groups.get(streamId);
    if (group === undefined) groups.set(streamId, { tenant, items: [item], startedAt: ts });
    else {
      group.items.push(item);
      group.startedAt = Math.min(group.startedAt, ts);
    }
  }
  return groups;
}

/** Creates the rows of streams seen for the first time and locks every stream of the batch. */
function lockGroups<T>(tx: StoreWriter, groups: ReadonlyMap<string, StreamGroup<T>>, now: number): Promise<StreamRow[]> {
  return tx.lockStreams([...groups].map(([streamId, group]) => newStreamRow(streamId, group.tenant, group.startedAt, now)));
}

/** Stores text the database may not hold as is (PostgreSQL text cannot hold NUL) as a JSON string literal. */
function encodeBody(text: string): Pick<RawRow, 'body' | 'body_encoding'> {
  return text.includes('\u0000') ? { body: JSON.stringify(text), body_encoding: 'json' } : { body: text, body_encoding: 'text' };
}

function decodeBody(body: string, encoding: string): string {
  return encoding === 'json' ? (JSON.parse(body) as string) : body;
}

/** The audit repository over either database: the logic is written once, the bulk statements per dialect. */
export class SqlAuditRepository implements AuditRepository {
  constructor(private readonly db: StoreBackend) {}

  get backend(): 'postgres' | 'sqlite' {
    return this.db.dialect;
  }

  migrate(): Promise<readonly number[]> {
    return this.db.migrate();
  }

  async ingestEvents(batch: readonly IncomingEvent[], now: number): Promise<EventIngestResult> {
    if (batch.length === 0) return { stored: 0, duplicates: 0, foreign: 0, ended: [] };
    const positions = new Map(batch.map((item, index) => [item, index]));
    const groups = groupByStream(batch, (item) => ({ streamId: item.event.stream_id, tenant: item.tenant, ts: item.event.ts }));
    return this.db.transaction(async (tx) => {
      const rows = await lockGroups(tx, groups, now);
      const inserts: EventRow[] = [];
      const links: EventLink[] = [];
      const updated: StreamRow[] = [];
      const ended: { streamId: string; status: StreamStatus; batchIndex: number }[] = [];
      let duplicates = 0;
      let foreign = 0;
      for (const row of rows) {
        const items = groups.get(row.stream_id)?.items ?? [];
        // A stream id is one tenant's: events of it published under another tenant are refused.
        const own = items.filter((item) => item.tenant === row.tenant);
        foreign += items.length - own.length;
        if (own.length === 0) continue;
        const unlinked =
          row.event_count > row.chain_seq
            ? await tx.all<UnlinkedEvent>('SELECT seq, content_hash FROM audit_events WHERE stream_id = $1 AND seq > $2 ORDER BY seq', [row.stream_id, row.chain_seq])
            : [];
        const plan = planStreamEvents(row.stream_id, { seq: row.chain_seq, hash: row.chain_hash }, unlinked, own);
        duplicates += plan.duplicates;
        if (plan.fresh.length === 0 && plan.links.length === 0) continue;
        inserts.push(...plan.inserts);
        links.push(...plan.links);
        const merged = applyEvents(row, plan.fresh, plan.head, now);
        updated.push(merged);
        const terminal = row.status === 'running' ? plan.fresh.find((item) => isTerminalEvent(item.event)) : undefined;
        if (terminal !== undefined) ended.push({ streamId: row.stream_id, status: merged.status, batchIndex: positions.get(terminal) ?? -1 });
      }
      // The stream rows are locked: nobody else inserts these keys, so every planned row is inserted.
      await tx.insertEvents(inserts);
      await tx.linkEvents(links);
      await tx.updateStreams(updated);
      return { stored: inserts.length, duplicates, foreign, ended };
    });
  }

  async ingestRaw(batch: readonly IncomingRaw[], now: number): Promise<RawIngestResult> {
    if (batch.length === 0) return { stored: 0, duplicates: 0, foreign: 0 };
    const groups = groupByStream(batch, (item) => ({ streamId: item.streamId, tenant: item.tenant, ts: item.ts }));
    return this.db.transaction(async (tx) => {
      const rows = await lockGroups(tx, groups, now);
      const rawRows: RawRow[] = [];
      const owned = new Map<string, IncomingRaw[]>();
      let foreign = 0;
      let ownRecords = 0;
      for (const row of rows) {
        const items = groups.get(row.stream_id)?.items ?? [];
        const own = items.filter((item) => item.tenant === row.tenant);
        foreign += items.length - own.length;
        owned.set(row.stream_id, own);
        const keys = new Set<string>();
        for (const item of own) {
          if (item.type !== 'record') continue;
          ownRecords += 1;
          const key = `${String(item.attempt)}:${String(item.rawSeq)}`;
          if (keys.has(key)) continue;
          keys.add(key);
          rawRows.push({
            stream_id: row.stream_id,
            attempt: item.attempt,
            raw_seq: item.rawSeq,
            kind: item.kind,
            ts: item.ts,
            js_seq: item.jsSeq,
            ...encodeBody(item.body),
            redacted: item.redacted ? 1 : 0,
          });
        }
      }
      const inserted = await tx.insertRaw(rawRows);
      const updated = rows
        .filter((row) => (owned.get(row.stream_id) ?? []).length > 0)
        .map((row) => applyRaw(row, owned.get(row.stream_id) ?? [], inserted.get(row.stream_id) ?? 0, now));
      await tx.updateStreams(updated);
      const stored = [...inserted.values()].reduce((sum, count) => sum + count, 0);
      return { stored, duplicates: ownRecords - stored, foreign };
    });
  }

  async findStream(tenant: string, streamId: string): Promise<StoredStream | undefined> {
    const [row] = await this.db.reader.all<RecordRow & { chain_seq: number; chain_hash: string; prompt: string | null }>(
      `SELECT ${RECORD_SELECT}, chain_seq, chain_hash, prompt FROM audit_streams WHERE stream_id = $1 AND tenant = $2`,
      [streamId, tenant],
    );
    if (row === undefined) return undefined;
    return { record: toStreamRecord(row), chain: { seq: row.chain_seq, hash: row.chain_hash }, prompt: row.prompt };
  }

  events(streamId: string): Promise<StoredEvent[]> {
    return this.db.reader.all<StoredEvent>(
      'SELECT seq, type, ts, js_time, body, content_hash, prev_hash, chain_hash FROM audit_events WHERE stream_id = $1 ORDER BY seq',
      [streamId],
    );
  }

  async rawRecords(streamId: string, afterJsSeq = 0): Promise<StoredRawRecord[]> {
    const rows = await this.db.reader.all<Omit<StoredRawRecord, 'redacted'> & { body_encoding: string; redacted: number }>(
      'SELECT attempt, raw_seq, kind, ts, js_seq, body, body_encoding, redacted FROM audit_raw WHERE stream_id = $1 AND js_seq > $2 ORDER BY js_seq, raw_seq',
      [streamId, afterJsSeq],
    );
    return rows.map(({ body_encoding, redacted, ...row }) => ({ ...row, body: decodeBody(row.body, body_encoding), redacted: redacted !== 0 }));
  }

  async listStreams(tenant: string, filter: StreamFilter, page: PageRequest): Promise<StreamPage> {
    const query = listStreamsQuery(tenant, filter, page);
    const rows = await this.db.reader.all<RecordRow>(query.sql, query.params);
    const streams = rows.slice(0, page.limit).map(toStreamRecord);
    const last = streams.at(-1);
    if (rows.length <= page.limit || last === undefined) return { streams };
    return { streams, next: { startedAt: last.started_at, streamId: last.stream_id } };
  }

  async stats(tenant: string, range: TimeRange): Promise<AuditStats> {
    const counts = statsQuery(tenant, range);
    const types = unknownTypesQuery(tenant, range);
    const rows = await this.db.reader.all<{ status: string; error_category: string | null; provider: string | null; streams: number; unknown_events: number | null }>(
      counts.sql,
      counts.params,
    );
    const typeRows = await this.db.reader.all<{ unknown_type: string; warnings: number }>(types.sql, types.params);
    const add = (into: Record<string, number>, key: string, count: number): void => {
      into[key] = (into[key] ?? 0) + count;
    };
    const byStatus: Record<string, number> = {};
    const byErrorCategory: Record<string, number> = {};
    const byProvider: Record<string, number> = {};
    const unknownByProvider: Record<string, number> = {};
    let streams = 0;
    let unknownTotal = 0;
    for (const row of rows) {
      const count = row.streams;
      const unknown = row.unknown_events ?? 0;
      streams += count;
      unknownTotal += unknown;
      add(byStatus, row.status, count);
      if (row.error_category !== null) add(byErrorCategory, row.error_category, count);
      add(byProvider, row.provider ?? 'unknown', count);
      if (unknown > 0) add(unknownByProvider, row.provider ?? 'unknown', unknown);
    }
    const byType: Record<string, number> = {};
    for (const row of typeRows) add(byType, row.unknown_type, row.warnings);
    return {
      streams,
      by_status: byStatus,
      by_error_category: byErrorCategory,
      by_provider: byProvider,
      unknown_events: { total: unknownTotal, by_provider: unknownByProvider, by_type: byType },
    };
  }

  async statsTimeline(tenant: string, range: { readonly from: number; readonly to: number }, bucketMs: number): Promise<StatsBucket[]> {
    const query = timelineQuery(tenant, range, bucketMs);
    const rows = await this.db.reader.all<{ bucket: number; status: string; error_category: string | null; streams: number }>(query.sql, query.params);
    return timelineBuckets(rows, range, bucketMs);
  }

  async unknownEvents(tenant: string, range: TimeRange): Promise<UnknownEventGroup[]> {
    const query = unknownEventsQuery(tenant, range);
    return unknownEventGroups(await this.db.reader.all<{ provider: string | null; unknown_type: string; stream_id: string }>(query.sql, query.params));
  }

  async deleteStreamsStartedBefore(cutoff: number, limit: number): Promise<number> {
    // No ORDER BY: the oldest rows are the first ones written, so a scan meets them first and stops at the limit.
    const expired = await this.db.reader.all<{ stream_id: string }>('SELECT stream_id FROM audit_streams WHERE started_at < $1 LIMIT $2', [cutoff, limit]);
    if (expired.length === 0) return 0;
    const ids = expired.map((row) => row.stream_id);
    const list = ids.map((_, index) => `$${String(index + 1)}`).join(', ');
    await this.db.transaction(async (tx) => {
      await tx.run(`DELETE FROM audit_events WHERE stream_id IN (${list})`, ids);
      await tx.run(`DELETE FROM audit_raw WHERE stream_id IN (${list})`, ids);
      await tx.run(`DELETE FROM audit_streams WHERE stream_id IN (${list})`, ids);
    });
    return ids.length;
  }

  async ping(): Promise<void> {
    await this.db.reader.all('SELECT 1 AS ok');
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
