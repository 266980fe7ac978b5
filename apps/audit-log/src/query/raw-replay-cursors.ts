import { NormalizerSession, createProviderAdapter } from '@llm-stream/adapters';

/**
 * A stream's raw trace replayed up to a point of LLM_RAW: the normalizer's session after the records stored up
 * to JetStream sequence `lastJsSeq`. The next page of a live view continues it
 * instead of replaying the whole trace again.
 */
export interface ReplayCursor {
  readonly session: NormalizerSession;
  lastJsSeq: number;
}

/** How many cursors are kept, and how long an unused one lives: a live view polls several times a second. */
export const REPLAY_CURSOR_CAPACITY = 256;
export const REPLAY_CURSOR_IDLE_MS = 60_000;

export function freshCursor(): ReplayCursor {
  return { session: new NormalizerSession({ createAdapter: createProviderAdapter }), lastJsSeq: 0 };
}

/**
 * The cursors of the streams being paged, least recently used first. A cursor is taken out while a read uses it
 * and put back after, so two reads of one stream never share a session; a read that starts before a kept
 * cursor's position (another viewer, a reload) gets a fresh cursor and replays from the start.
 */
export class ReplayCursors {
  private readonly kept = new Map<string, { cursor: ReplayCursor; usedAt: number }>();

  constructor(
    private readonly capacity = REPLAY_CURSOR_CAPACITY,
    private readonly idleMs = REPLAY_CURSOR_IDLE_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** A cursor at or before `afterJsSeq`: the kept one when it is, else a fresh one. */
  take(streamId: string, afterJsSeq: number): ReplayCursor {
    const entry = this.kept.get(streamId);
    if (entry === undefined || entry.cursor.lastJsSeq > afterJsSeq || this.now() - entry.usedAt > this.idleMs) return freshCursor();
    this.kept.delete(streamId);
    return entry.cursor;
  }

  put(streamId: string, cursor: ReplayCursor): void {
    this.kept.delete(streamId);
    this.kept.set(streamId, { cursor, usedAt: this.now() });
    const cutoff = this.now() - this.idleMs;
    for (const [id, entry] of this.kept) {
      if (this.kept.size <= this.capacity && entry.usedAt >= cutoff) break;
      this.kept.delete(id);
    }
  }

  get size(): number {
    return this.kept.size;
  }
}
