import { err, type Result } from '@llm-stream/contract';
import type { PageRequest, StreamFilter } from '../store/audit-repository.js';
import { parseListQuery, type QueryParamError } from '../query/query-params.js';

/**
 * `GET /v1/replay`: the list route's parameters (the same checks, the same 400s), except `status=running`:
 * a running stream has no outcome to compare yet.
 */
export function parseReplayQuery(query: Readonly<Record<string, unknown>>): Result<{ filter: StreamFilter; page: PageRequest }, QueryParamError> {
  const parsed = parseListQuery(query);
  if (parsed.ok && parsed.value.filter.status === 'running') return err({ code: 'invalid_request', message: 'status running: a running stream has no outcome to compare' });
  return parsed;
}
