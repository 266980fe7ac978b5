import { appendFileSync } from 'node:fs';
import type { DeliveryOutcome } from './fault-writer.js';
import type { RequestLogEntry } from './request-log.js';

/**
 * One line of the served-body log: what one provider request was answered with, byte-exact, and where the
 * body stopped. An independent checker (tools/chaos) compares it with the raw trace the gateway stored.
 */
export interface ServedBodyLine {
  readonly request_id: string;
  readonly provider: string;
  readonly model: string | null;
  readonly scenario: string | null;
  /** `transcript:<provider>/<case>`, `synthetic:<provider>` or `error:<status>`. */
  readonly served: string | null;
  readonly status: number | null;
  readonly started_at: number;
  readonly ended_at: number;
  /** `ended` (clean end), `cut` (cut_after_bytes), `client_gone` (the client closed first), `error` (an error body). */
  readonly outcome: DeliveryOutcome | 'error';
  /** Body bytes written when the server cut the connection; null when it did not cut. */
  readonly cut_at: number | null;
  readonly bytes_written: number;
  /** Every body byte written, base64 (a cut can split a UTF-8 character). */
  readonly body_base64: string;
}

/**
 * Appends one NDJSON line per answered provider request to a file (`REPLAY_SERVED_LOG`). Each line is written
 * with one synchronous append when the response ends, so a line is whole and is on disk before the next
 * request ends, also when the process is killed afterwards.
 */
export class ServedLog {
  constructor(private readonly path: string) {}

  append(entry: RequestLogEntry, outcome: ServedBodyLine['outcome'], body: Buffer): void {
    const line: ServedBodyLine = {
      request_id: entry.id,
      provider: entry.provider,
      model: entry.model,
      scenario: entry.scenario,
      served: entry.served,
      status: entry.status,
      started_at: entry.started_at,
      ended_at: entry.finished_at ?? entry.aborted_at ?? entry.started_at,
      outcome,
      cut_at: outcome === 'cut' ? body.length : null,
      bytes_written: body.length,
      body_base64: body.toString('base64'),
    };
    appendFileSync(this.path, `${JSON.stringify(line)}\n`);
  }
}
