import type { Msg } from '@nats-io/nats-core';

/**
 * JetStream's answer to one publish: stored (`duplicate` when the stream already held its `Nats-Msg-Id`), or
 * refused. `wrong_last_sequence` is the refusal of a fenced publish (`Nats-Expected-Last-Subject-Sequence`):
 * another writer added to the subject since the sequence the publisher expected.
 */
export type PubAck =
  | { readonly ok: true; readonly seq: number; readonly duplicate: boolean }
  | { readonly ok: false; readonly refusal: 'wrong_last_sequence' | 'unavailable' | 'other'; readonly description: string };

/** JetStream's error code for a failed `Nats-Expected-Last-Subject-Sequence` check. */
const WRONG_LAST_SEQUENCE = 10071;

/**
 * Reads a PubAck from the message JetStream sent to the publish's reply subject
 * (https://docs.nats.io/reference/reference-protocols/nats_api_reference, "PubAck"). A status message without
 * a body (503: no stream answered, the server has no JetStream leader for it now) is a refusal to try again.
 */
export function readPubAck(message: Msg): PubAck {
  const headers = message.headers;
  if (message.data.length === 0) {
    return { ok: false, refusal: 'unavailable', description: headers ? `status ${String(headers.code)} ${headers.description}` : 'empty answer' };
  }
  let body: unknown;
  try {
    body = JSON.parse(message.string());
  } catch {
    return { ok: false, refusal: 'other', description: 'an answer that is not JSON' };
  }
  if (typeof body !== 'object' || body === null) return { ok: false, refusal: 'other', description: 'an answer that is not an object' };
  const fields = body as { seq?: unknown; duplicate?: unknown; error?: { err_code?: unknown; description?: unknown } };
  if (fields.error !== undefined) {
    const description = typeof fields.error.description === 'string' ? fields.error.description : 'refused';
    return { ok: false, refusal: fields.error.err_code === WRONG_LAST_SEQUENCE ? 'wrong_last_sequence' : 'other', description };
  }
  if (typeof fields.seq !== 'number') return { ok: false, refusal: 'other', description: 'an answer without a sequence' };
  return { ok: true, seq: fields.seq, duplicate: fields.duplicate === true };
}
