import { err, ok, parseStreamSubject, type ContractEvent, type Result } from '@llm-stream/contract';
import { decodeEventMessage } from '@llm-stream/pipeline';
import type { InvalidEventCode } from './subscription-reports.js';

export interface ReadEventError {
  readonly code: InvalidEventCode;
  readonly message: string;
}

/**
 * A delivered message as an event. With `validate` it must pass the contract's JSON Schema
 * ({@link decodeEventMessage}). Without, only what the client itself relies on is checked, so that a
 * foreign message can never break the ordering: a JSON object on its own stream's subject with a string
 * `type` and a positive integer `seq`.
 */
export function readEventMessage(subject: string, data: string, validate: boolean): Result<ContractEvent, ReadEventError> {
  if (validate) {
    const decoded = decodeEventMessage(subject, data);
    return decoded.ok ? ok(decoded.value.event) : decoded;
  }
  const parts = parseStreamSubject(subject);
  if (parts === null) return err({ code: 'not_an_event_subject', message: `not an event subject: ${subject}` });
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch (error) {
    return err({ code: 'invalid_json', message: `event payload is not JSON (${String(error)})` });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return err({ code: 'schema_violation', message: 'event payload is not a JSON object' });
  }
  const fields = value as Record<string, unknown>;
  if (fields['stream_id'] !== parts.streamId) {
    return err({ code: 'stream_mismatch', message: `event of ${String(fields['stream_id'])} on the subject of ${parts.streamId}` });
  }
  if (typeof fields['type'] !== 'string') return err({ code: 'schema_violation', message: 'event has no string "type"' });
  const seq = fields['seq'];
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 1) {
    return err({ code: 'invalid_seq', message: `event seq ${JSON.stringify(seq)} is not a positive integer` });
  }
  return ok(value as ContractEvent);
}
