import type { ContractEvent, EventTime, RawTrace, RawTraceEntry, StreamDetail } from '@llm-stream/contract';

/**
 * What the console holds of one stream, grown a read at a time: the latest detail (record, assembled result),
 * every event and its storage time, every raw record. A live view asks only for what is new (`after_seq`,
 * `after_js_seq`) and appends it, so polling a 5,000-event stream moves the new events, not all of them.
 */
export class StreamState {
  private latest: StreamDetail | undefined;
  private readonly heldEvents: ContractEvent[] = [];
  private readonly heldTimes: EventTime[] = [];
  private readonly heldRecords: RawTraceEntry[] = [];
  private lastJs = 0;

  /** The seq of the last event held: the next detail read asks for `after_seq` of it. */
  get lastSeq(): number {
    return this.heldEvents.at(-1)?.seq ?? 0;
  }

  /** The LLM_RAW sequence the last raw page ended at: the next page asks for `after_js_seq` of it. */
  get lastJsSeq(): number {
    return this.lastJs;
  }

  get records(): readonly RawTraceEntry[] {
    return this.heldRecords;
  }

  /** The detail as if read whole: the latest record and result with every event held. */
  get detail(): StreamDetail | undefined {
    if (this.latest === undefined) return undefined;
    const { events_after_seq: _page, ...detail } = this.latest;
    return { ...detail, events: this.heldEvents, event_times: this.heldTimes };
  }

  get trace(): RawTrace | undefined {
    return this.latest === undefined ? undefined : { stream_id: this.latest.stream.stream_id, records: this.heldRecords };
  }

  /** A detail read: whole (replaces what is held) or after a seq (appends the events not held yet). */
  applyDetail(detail: StreamDetail): void {
    if (detail.events_after_seq === undefined) {
      this.heldEvents.length = 0;
      this.heldTimes.length = 0;
    }
    const after = this.lastSeq;
    for (const event of detail.events) if (event.seq > after) this.heldEvents.push(event);
    for (const time of detail.event_times) if (time.seq > after) this.heldTimes.push(time);
    this.latest = detail;
  }

  /** A page of the raw trace, in LLM_RAW order; a page from the start (after_js_seq 0) replaces what is held. */
  applyRawPage(trace: RawTrace): void {
    const after = trace.page?.after_js_seq ?? 0;
    if (after === 0) this.heldRecords.length = 0;
    else if (after !== this.lastJs) return;
    this.heldRecords.push(...trace.records);
    this.lastJs = trace.page?.last_js_seq ?? after;
  }

  /**
   * Everything the store held at the last read is here: the stream's own counts (from its latest record) match
   * what was appended. A mismatch (a record the audit log stored late, behind one already read) calls for one
   * whole read.
   */
  matchesCounts(): boolean {
    const stream = this.latest?.stream;
    return stream !== undefined && stream.event_count === this.heldEvents.length && stream.raw_count === this.heldRecords.length;
  }
}
