import { err, jsonSyntaxProblem, ok, parseStreamSubject, validateEvent, type ContractEvent, type Result } from '@llm-stream/contract';
import type { InvalidEventCode } from './subscription-reports.js';

export interface ReadEventError {
  readonly code: InvalidEventCode;
  readonly message: string;
}

/**
 * A delivered message as an event: a JSON object on its own stream's subject (`llm.events.<tenant>.<stream_id>`).
 * With `validate` it must pass the contract's JSON Schema ({@link validateEvent}). Without, only what the
 * client itself relies on is checked, so that a foreign message can never break the ordering: a string
 * `type` and a positive integer `seq`.
 */
export function readEventMessage(subject: string, data: string, validate: boolean): Result<ContractEvent, ReadEventError> {
  const parts = parseStreamSubject(subject);
  if (parts === null) return err({ code: 'not_an_event_subject', message: `not an event subject: ${subject}` });
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch (error) {
    return err({ code: 'invalid_json', message: `event payload is not JSON: ${jsonSyntaxProblem(error, data)}` });
  }
  const checked = validate ? validated(value) : minimallyChecked(value);
  if (!checked.ok) return checked;
  if (checked.value.stream_id !== parts.streamId) {
    return err({ code: 'stream_mismatch', message: `event of ${checked.value.stream_id} on the subject of ${parts.streamId}` });
  }
  return checked;
}

function validated(value: unknown): Result<ContractEvent, ReadEventError> {
  const result = validateEvent(value);
  return result.ok ? result : err({ code: 'schema_violation', message: result.error.message });
}

function minimallyChecked(value: unknown): Result<ContractEvent, ReadEventError> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return err({ code: 'schema_violation', message: 'event payload is not a JSON object' });
  }
  const fields = value as Record<string, unknown>;
  if (typeof fields['stream_id'] !== 'string') return err({ code: 'schema_violation', message: 'event has no string "stream_id"' });
  if (typeof fields['type'] !== 'string') return err({ code: 'schema_violation', message: 'event has no string "type"' });
  const seq = fields['seq'];
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 1) {
    return err({ code: 'invalid_seq', message: `event seq ${JSON.stringify(seq)} is not a positive integer` });
  }
  return ok(value as ContractEvent);
}
