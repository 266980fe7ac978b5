import type { IncomingHttpHeaders } from 'node:http';
import type { ProviderName } from '@llm-stream/contract';
import { epochMs } from './clock.js';

/** What `GET /_replay/requests` returns for one provider request (snake_case: it is a JSON API). */
export interface RequestLogEntry {
  readonly id: string;
  readonly provider: ProviderName;
  /** Model name as selected: the body's `model`, or Gemini's path segment (URL-decoded). */
  readonly model: string | null;
  readonly scenario: string | null;
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string | string[]>>;
  readonly headers: IncomingHttpHeaders;
  /** The parsed JSON body; the raw text when it was not JSON; null when empty. */
  readonly body: unknown;
  readonly started_at: number;
  status: number | null;
  /** What was served: `transcript:<provider>/<case>`, `synthetic:<provider>`, `error:<status>`. */
  served: string | null;
  finished_at: number | null;
  client_aborted: boolean;
  aborted_at: number | null;
}

export type NewRequest = Omit<RequestLogEntry, 'id' | 'started_at' | 'status' | 'served' | 'finished_at' | 'client_aborted' | 'aborted_at'>;

/** The provider requests received, oldest first, bounded so a long benchmark cannot exhaust memory. */
export class RequestLog {
  private readonly entries = new Map<string, RequestLogEntry>();
  private counter = 0;

  constructor(private readonly limit: number) {}

  /** Records a request as it arrives; the caller updates status, end and abort on the returned entry. */
  start(request: NewRequest): RequestLogEntry {
    this.counter += 1;
    const entry: RequestLogEntry = {
      id: `req_${this.counter}`,
      ...request,
      started_at: epochMs(),
      status: null,
      served: null,
      finished_at: null,
      client_aborted: false,
      aborted_at: null,
    };
    this.entries.set(entry.id, entry);
    if (this.entries.size > this.limit) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
    return entry;
  }

  list(filter: { readonly scenario: string | null; readonly model: string | null }): RequestLogEntry[] {
    return [...this.entries.values()].filter(
      (entry) => (filter.scenario === null || entry.scenario === filter.scenario) && (filter.model === null || entry.model === filter.model),
    );
  }

  clear(): void {
    this.entries.clear();
  }
}
