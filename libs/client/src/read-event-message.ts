import { decodeEventMessage, err, ok, type ContractEvent, type Result } from '@llm-stream/contract';
import type { InvalidEventCode } from './subscription-reports.js';

export interface ReadEventError {
  readonly code: InvalidEventCode;
  readonly message: string;
}

/**
 * A delivered message as an event ({@link decodeEventMessage}): a JSON object on its own stream's subject
 * (`llm.events.<tenant>.<stream_id>`). With `validate` it must pass the contract's JSON Schema. Without, only
 * what the client itself relies on is checked as well, so that a foreign message can never break the
 * ordering: a string `type` and a positive integer `seq`.
 */
export function readEventMessage(subject: string, data: string, validate: boolean): Result<ContractEvent, ReadEventError> {
  const decoded = decodeEventMessage(subject, data, { validate });
  if (!decoded.ok) return decoded;
  const { event } = decoded.value;
  if (validate) return ok(event);
  const fields = event as unknown as Record<string, unknown>;
  if (typeof fields['type'] !== 'string') return err({ code: 'schema_violation', message: 'event has no string "type"' });
  const seq = fields['seq'];
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 1) {
    return err({ code: 'invalid_seq', message: `event seq ${JSON.stringify(seq)} is not a positive integer` });
  }
  return ok(event);
}
