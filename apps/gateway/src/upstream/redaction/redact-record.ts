import type { UnstampedRecord } from '@llm-stream/adapters';
import type { SecretRedactor } from './secret-redactor.js';

/**
 * The boundary: every raw trace record the gateway builds passes here before it is stamped, published to
 * NATS (and from there stored by the audit log and normalized into the client's events). Every string of the
 * record is redacted, whatever its kind: frame text, an error response's body, response headers
 * (`request_id`, `content_type`), an attempt's failure detail, a captured client request (the prompt a user
 * typed a key into). The two texts that end where bytes were cut also lose a secret's start at their end
 * ({@link SecretRedactor.redactCut}): an error response's body (kept up to its limit) and a partial frame (the
 * bytes left when the body ended or the connection broke). The same record comes back when nothing was found,
 * so frames stay byte-exact.
 */
export function redactRecord(record: UnstampedRecord, redactor: SecretRedactor): UnstampedRecord {
  // A trace record is JSON by construction (the trace codec writes it as such).
  const redacted = redactor.redactJson(record) as unknown as UnstampedRecord;
  if (redacted.kind === 'frame' && redacted.partial === true) {
    const text = redactor.redactCut(redacted.text);
    return text === redacted.text ? redacted : { ...redacted, text };
  }
  if (redacted.kind === 'upstream.response' && redacted.body !== undefined) {
    const body = redactor.redactCut(redacted.body);
    return body === redacted.body ? redacted : { ...redacted, body };
  }
  return redacted;
}
