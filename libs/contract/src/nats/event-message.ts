import type { ContractEvent } from '../events/contract-event.js';
import { jsonSyntaxProblem } from '../json-syntax-problem.js';
import { err, ok, type Result } from '../result.js';
import { validateEvent } from '../schema/validate-event.js';
import { parseStreamSubject } from './subjects.js';

/** Why a message on an event subject is not an event of that subject's stream. */
export interface EventMessageError {
  readonly code: 'not_an_event_subject' | 'invalid_json' | 'schema_violation' | 'stream_mismatch';
  readonly message: string;
}

/**
 * Reads an event message. With `validate` (the default) the payload is checked against the contract's JSON
 * Schema; a trusted internal hop on the hot path may skip it.
 */
export function decodeEventMessage(
  subject: string,
  data: string,
  options: { readonly validate?: boolean } = {},
): Result<{ event: ContractEvent; tenant: string }, EventMessageError> {
  const parts = parseStreamSubject(subject);
  if (!parts) return err({ code: 'not_an_event_subject', message: `not an event subject: ${subject}` });
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch (error) {
    return err({ code: 'invalid_json', message: `event payload is not JSON: ${jsonSyntaxProblem(error, data)}` });
  }
  let event: ContractEvent;
  if (options.validate === false) {
    // Unchecked on purpose (a trusted hop), but never trusted to be an object at all.
    if (typeof value !== 'object' || value === null || typeof (value as { stream_id?: unknown }).stream_id !== 'string') {
      return err({ code: 'schema_violation', message: 'event payload is not an event object' });
    }
    event = value as ContractEvent;
  } else {
    const validated = validateEvent(value);
    if (!validated.ok) return err({ code: 'schema_violation', message: validated.error.message });
    event = validated.value;
  }
  if (event.stream_id !== parts.streamId) {
    return err({ code: 'stream_mismatch', message: `event of ${event.stream_id} on the subject of ${parts.streamId}` });
  }
  return ok({ event, tenant: parts.tenant });
}
