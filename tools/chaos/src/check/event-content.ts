import { createHash } from 'node:crypto';

/** Members of every object in key order, so that two serializations of one value give one text. */
function sortedMembers(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * A contract event's content as a short fingerprint: sha256 (base64url) of its JSON with every object's members
 * in key order. Content, not bytes: two writers of the same event may order its keys differently, and that is
 * not a difference a client can see. Written here rather than imported so the checker shares no code with the
 * services it judges.
 */
export function eventContentHash(event: unknown): string {
  return createHash('sha256').update(JSON.stringify(event, sortedMembers), 'utf8').digest('base64url');
}

/**
 * The fingerprint of an event received as JSON text (an SSE record's `data`). Text that is not JSON is hashed
 * as it is: it can never equal the sorted serialization of a stored event, which is JSON.
 */
export function receivedContentHash(json: string): string {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return createHash('sha256').update(json, 'utf8').digest('base64url');
  }
  return eventContentHash(value);
}
