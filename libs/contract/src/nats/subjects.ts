/**
 * NATS subjects, JetStream stream names and message headers: the one place where they are spelled.
 *
 * Data flow: gateway --raw trace--> LLM_RAW --> normalizer --contract events--> LLM_EVENTS --> HTTP clients,
 * backends and the audit log. Each stream also gets one work item in LLM_WORK, which a normalizer replica
 * holds while it owns the stream (see docs/pipeline.md).
 */

/** Tenant ids become subject tokens. */
export const TENANT_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** Stream ids become subject tokens too. */
export const STREAM_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

export function isValidTenant(value: string): boolean {
  return TENANT_PATTERN.test(value);
}

export function isValidStreamId(value: string): boolean {
  return STREAM_ID_PATTERN.test(value);
}

export const STREAM_NAMES = {
  /** Raw trace records, as published by the gateway. */
  raw: 'LLM_RAW',
  /** Contract events, as published by the normalizer: the full-truth log. */
  events: 'LLM_EVENTS',
  /** One work item per stream; a normalizer acks it when the stream ended (work-queue retention). */
  work: 'LLM_WORK',
} as const;

/**
 * The durable consumers of the services, by stream. NATS permissions name them: each service may read and
 * settle only its own, and no other identity may create, update or delete one of them (a JetStream create on an
 * existing durable name updates it).
 */
export const DURABLE_CONSUMERS = {
  /** Shared by every normalizer replica on LLM_WORK. */
  normalizerWork: { stream: STREAM_NAMES.work, durable: 'normalizers' },
  /** The audit log's reader of LLM_EVENTS. */
  auditEvents: { stream: STREAM_NAMES.events, durable: 'audit-events' },
  /** The audit log's reader of LLM_RAW. */
  auditRaw: { stream: STREAM_NAMES.raw, durable: 'audit-raw' },
} as const;

export const SUBJECT_ROOTS = {
  raw: 'llm.raw',
  events: 'llm.events',
  work: 'llm.work',
  cancel: 'llm.control.cancel',
  reader: 'llm.control.reader',
  gatewayLease: 'llm.gateways.lease',
  workHolder: 'llm.normalizers.holder',
  normalizerPresence: 'llm.normalizers.presence',
} as const;

/** `llm.raw.<tenant>.<stream_id>` */
export function rawSubject(tenant: string, streamId: string): string {
  return `${SUBJECT_ROOTS.raw}.${tenant}.${streamId}`;
}

/** `llm.events.<tenant>.<stream_id>`: a backend subscribes to `llm.events.<tenant>.>` for all its streams. */
export function eventsSubject(tenant: string, streamId: string): string {
  return `${SUBJECT_ROOTS.events}.${tenant}.${streamId}`;
}

/** All event subjects of one tenant. */
export function tenantEventsWildcard(tenant: string): string {
  return `${SUBJECT_ROOTS.events}.${tenant}.*`;
}

/** `llm.work.<tenant>.<stream_id>` */
export function workSubject(tenant: string, streamId: string): string {
  return `${SUBJECT_ROOTS.work}.${tenant}.${streamId}`;
}

/** Core NATS: asks the gateway that owns the upstream request to cancel it. */
export function cancelSubject(streamId: string): string {
  return `${SUBJECT_ROOTS.cancel}.${streamId}`;
}

/** Core NATS: a gateway tells the owner that a resumed reader attached to (or left) the stream. */
export function readerSubject(streamId: string): string {
  return `${SUBJECT_ROOTS.reader}.${streamId}`;
}

/** Core NATS: each gateway instance renews its liveness lease here. */
export function gatewayLeaseSubject(gatewayId: string): string {
  return `${SUBJECT_ROOTS.gatewayLease}.${gatewayId}`;
}

/**
 * Core NATS request: a normalizer that got a stream's work item redelivered asks whether a live replica still
 * holds it (that replica's work-progress thread answers) before it takes the stream over.
 */
export function workHolderSubject(streamId: string): string {
  return `${SUBJECT_ROOTS.workHolder}.${streamId}`;
}

/** What every normalizer's work-progress thread subscribes to: the holder queries of all streams. */
export const WORK_HOLDER_QUERIES = `${SUBJECT_ROOTS.workHolder}.*`;

/** Core NATS: each normalizer replica says here, every few seconds, which adapters build it runs. */
export function normalizerPresenceSubject(replicaId: string): string {
  return `${SUBJECT_ROOTS.normalizerPresence}.${replicaId}`;
}

/** Every normalizer replica's presence subject (`llm.normalizers.presence.*`): what the gateways listen to. */
export const NORMALIZER_PRESENCE_SUBJECTS = `${SUBJECT_ROOTS.normalizerPresence}.*` as const;

/** Splits `llm.<root>.<tenant>.<stream_id>` subjects; `null` when the subject is not one of ours. */
export function parseStreamSubject(subject: string): { tenant: string; streamId: string } | null {
  const parts = subject.split('.');
  if (parts.length !== 4 || parts[0] !== 'llm') return null;
  const [, , tenant, streamId] = parts;
  if (tenant === undefined || streamId === undefined) return null;
  return { tenant, streamId };
}

/** Message headers. `Nats-Msg-Id` makes republishing idempotent inside the stream's duplicate window. */
export const HEADERS = {
  msgId: 'Nats-Msg-Id',
  streamId: 'Llm-Stream-Id',
  tenant: 'Llm-Tenant',
  provider: 'Llm-Provider',
  model: 'Llm-Model',
  attempt: 'Llm-Attempt',
  rawSeq: 'Llm-Raw-Seq',
  record: 'Llm-Record',
  ts: 'Llm-Ts',
  seq: 'Llm-Seq',
  eventType: 'Llm-Event-Type',
  /** On block events: the block's kind, so a projection can filter without parsing the payload. */
  blockKind: 'Llm-Block-Kind',
  gatewayId: 'Llm-Gateway-Id',
  traceparent: 'traceparent',
  tracestate: 'tracestate',
} as const;

/** Deduplication key of a contract event. */
export function eventMsgId(streamId: string, seq: number): string {
  return `${streamId}:${String(seq)}`;
}

/** Deduplication key of a raw trace record. */
export function rawMsgId(streamId: string, rawSeq: number): string {
  return `${streamId}:r${String(rawSeq)}`;
}
