import { isProviderName, type ProviderName } from '../events/provider.js';
import { err, ok, type Result } from '../result.js';
import { isValidStreamId, isValidTenant } from './subjects.js';

/**
 * The one work item a gateway puts on `llm.work.<tenant>.<stream_id>` for each accepted stream: the
 * normalizer replica that receives it owns the stream until it acks it.
 */
export interface WorkItem {
  readonly stream_id: string;
  readonly tenant: string;
  readonly provider: ProviderName;
  readonly model: string;
  /** Whose liveness lease to watch. */
  readonly gateway_id: string;
}

export interface WorkItemError {
  readonly code: 'invalid_work_item';
  readonly message: string;
}

export function encodeWorkItem(item: WorkItem): string {
  return JSON.stringify(item);
}

export function decodeWorkItem(data: string): Result<WorkItem, WorkItemError> {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return err({ code: 'invalid_work_item', message: 'work item is not JSON' });
  }
  if (typeof value !== 'object' || value === null) return err({ code: 'invalid_work_item', message: 'work item is not an object' });
  const item = value as Record<string, unknown>;
  const { stream_id, tenant, provider, model, gateway_id } = item;
  if (typeof stream_id !== 'string' || !isValidStreamId(stream_id)) return invalid('stream_id');
  if (typeof tenant !== 'string' || !isValidTenant(tenant)) return invalid('tenant');
  if (!isProviderName(provider)) return invalid('provider');
  if (typeof model !== 'string' || model === '') return invalid('model');
  if (typeof gateway_id !== 'string' || gateway_id === '') return invalid('gateway_id');
  return ok({ stream_id, tenant, provider, model, gateway_id });
}

function invalid(field: string): { readonly ok: false; readonly error: WorkItemError } {
  return err({ code: 'invalid_work_item', message: `work item has a missing or invalid ${field}` });
}
