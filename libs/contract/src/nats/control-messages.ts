import { err, ok, type Result } from '../result.js';
import { SUBJECT_ROOTS, isValidStreamId, isValidTenant } from './subjects.js';

/**
 * The control plane between the services (core NATS, no JetStream): cancel requests and reader notices
 * between gateways, the gateways' liveness leases the normalizers watch, and the normalizers' presence the
 * gateways watch. Each message is JSON; every
 * decoder validates what it reads and returns a typed error instead of trusting a cast.
 */

/** `llm.control.cancel.<stream_id>` (request-reply): asks the gateway that holds the upstream to cancel it. */
export interface CancelRequest {
  /** The tenant of the API key that asked: a gateway cancels only a stream of the same tenant. */
  readonly tenant: string;
}

/** The reply of the gateway that holds the stream (no reply at all: no gateway holds it). */
export interface CancelReply {
  readonly ok: true;
}

/** `llm.control.reader.<stream_id>`: a reader on another gateway attached to the stream, or left it. */
export interface ReaderNotice {
  readonly tenant: string;
  readonly action: 'attach' | 'detach';
}

/** `llm.gateways.lease.<gateway instance id>`: a gateway instance is alive (renewed every LEASE_INTERVAL_MS). */
export interface GatewayLease {
  /** Streams whose upstream the instance holds (for operators; liveness does not depend on it). */
  readonly open_streams: number;
}

export interface ControlMessageError {
  readonly code: 'invalid_control_message';
  /** What is wrong, never the message's content. */
  readonly message: string;
}

export function encodeCancelRequest(request: CancelRequest): string {
  return JSON.stringify({ tenant: request.tenant });
}

export function decodeCancelRequest(data: string): Result<CancelRequest, ControlMessageError> {
  const fields = jsonObject(data, 'cancel request');
  if (!fields.ok) return fields;
  const { tenant } = fields.value;
  if (typeof tenant !== 'string' || !isValidTenant(tenant)) return invalid('cancel request', 'tenant');
  return ok({ tenant });
}

export function encodeCancelReply(reply: CancelReply): string {
  return JSON.stringify({ ok: reply.ok });
}

export function decodeCancelReply(data: string): Result<CancelReply, ControlMessageError> {
  const fields = jsonObject(data, 'cancel reply');
  if (!fields.ok) return fields;
  if (fields.value['ok'] !== true) return invalid('cancel reply', 'ok');
  return ok({ ok: true });
}

/**
 * `llm.normalizers.presence.<replica id>`: a normalizer replica is running, with this adapters build (see
 * ADAPTERS_BUILD in @llm-stream/adapters). Sent every NORMALIZER_PRESENCE_INTERVAL_MS.
 */
export interface NormalizerPresence {
  readonly adapters: number;
}

/** How often a normalizer replica says it is there; a gateway forgets one not heard for three intervals. */
export const NORMALIZER_PRESENCE_INTERVAL_MS = 1_000;

export function encodeNormalizerPresence(presence: NormalizerPresence): string {
  return JSON.stringify({ adapters: presence.adapters });
}

export function decodeNormalizerPresence(data: string): Result<NormalizerPresence, ControlMessageError> {
  const fields = jsonObject(data, 'normalizer presence');
  if (!fields.ok) return fields;
  const { adapters } = fields.value;
  if (typeof adapters !== 'number' || !Number.isSafeInteger(adapters) || adapters < 1) return invalid('normalizer presence', 'adapters');
  return ok({ adapters });
}

/** The replica id of a presence subject (`llm.normalizers.presence.<id>`); null for any other subject. */
export function presenceSubjectReplicaId(subject: string): string | null {
  return lastToken(SUBJECT_ROOTS.normalizerPresence, subject);
}

export function encodeReaderNotice(notice: ReaderNotice): string {
  return JSON.stringify({ tenant: notice.tenant, action: notice.action });
}

export function decodeReaderNotice(data: string): Result<ReaderNotice, ControlMessageError> {
  const fields = jsonObject(data, 'reader notice');
  if (!fields.ok) return fields;
  const { tenant, action } = fields.value;
  if (typeof tenant !== 'string' || !isValidTenant(tenant)) return invalid('reader notice', 'tenant');
  if (action !== 'attach' && action !== 'detach') return invalid('reader notice', 'action');
  return ok({ tenant, action });
}

export function encodeGatewayLease(lease: GatewayLease): string {
  return JSON.stringify({ open_streams: lease.open_streams });
}

export function decodeGatewayLease(data: string): Result<GatewayLease, ControlMessageError> {
  const fields = jsonObject(data, 'gateway lease');
  if (!fields.ok) return fields;
  const { open_streams } = fields.value;
  if (typeof open_streams !== 'number' || !Number.isSafeInteger(open_streams) || open_streams < 0) return invalid('gateway lease', 'open_streams');
  return ok({ open_streams });
}

/** Every stream's cancel subject (`llm.control.cancel.*`): the pattern a gateway's cancel handler listens to. */
export const CANCEL_SUBJECTS = `${SUBJECT_ROOTS.cancel}.*` as const;
/** Every stream's reader subject (`llm.control.reader.*`). */
export const READER_SUBJECTS = `${SUBJECT_ROOTS.reader}.*` as const;
/** Every gateway instance's lease subject (`llm.gateways.lease.*`). */
export const GATEWAY_LEASE_SUBJECTS = `${SUBJECT_ROOTS.gatewayLease}.*` as const;

/** The stream id of a cancel or reader subject (`llm.control.<kind>.<stream_id>`); null for any other subject. */
export function controlSubjectStreamId(subject: string): string | null {
  for (const root of [SUBJECT_ROOTS.cancel, SUBJECT_ROOTS.reader]) {
    if (!subject.startsWith(`${root}.`)) continue;
    const streamId = subject.slice(root.length + 1);
    return isValidStreamId(streamId) ? streamId : null;
  }
  return null;
}

/** The gateway instance id of a lease subject (`llm.gateways.lease.<id>`); null for any other subject. */
export function leaseSubjectGatewayId(subject: string): string | null {
  return lastToken(SUBJECT_ROOTS.gatewayLease, subject);
}

/** The one token after `root` in `subject` (`<root>.<token>`); null for any other subject. */
function lastToken(root: string, subject: string): string | null {
  const prefix = `${root}.`;
  if (!subject.startsWith(prefix)) return null;
  const token = subject.slice(prefix.length);
  return token === '' || token.includes('.') ? null : token;
}

function jsonObject(data: string, what: string): Result<Readonly<Record<string, unknown>>, ControlMessageError> {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return err({ code: 'invalid_control_message', message: `${what} is not JSON` });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return err({ code: 'invalid_control_message', message: `${what} is not an object` });
  return ok(value as Readonly<Record<string, unknown>>);
}

function invalid(what: string, field: string): { readonly ok: false; readonly error: ControlMessageError } {
  return err({ code: 'invalid_control_message', message: `${what} has a missing or invalid ${field}` });
}
