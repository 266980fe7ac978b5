import { DURABLE_CONSUMERS, STREAM_NAMES, SUBJECT_ROOTS } from '@llm-stream/contract';
import { EVENTS_FLOW_CONTROL_SUBJECTS, PLATFORM_API_IN_TENANT, inboxPrefixOf, tenantEventsSubjects, type PlatformIdentity } from './nats-identities.js';

/** A user's subject permissions, as nats-server's `permissions` block takes them (deny wins over allow). */
export interface SubjectPermissions {
  readonly publish: { readonly allow: readonly string[]; readonly deny: readonly string[] };
  readonly subscribe: { readonly allow: readonly string[]; readonly deny: readonly string[] };
}

const API = '$JS.API';
type StreamName = (typeof STREAM_NAMES)[keyof typeof STREAM_NAMES];
type Durable = (typeof DURABLE_CONSUMERS)[keyof typeof DURABLE_CONSUMERS];

/**
 * The JetStream API subjects of reading one stream with consumers of one's own: stream info, message get
 * (direct or through the API), creating (old and new API subjects), inspecting, pulling from, acking and
 * deleting a consumer. Consumer names are wildcards here (ordered consumers get generated names);
 * {@link durableGuards} takes the durables of other services back out.
 */
export function streamReadSubjects(stream: string): string[] {
  return [
    `${API}.STREAM.INFO.${stream}`,
    `${API}.STREAM.MSG.GET.${stream}`,
    `${API}.DIRECT.GET.${stream}`,
    `${API}.DIRECT.GET.${stream}.>`,
    `${API}.CONSUMER.CREATE.${stream}`,
    `${API}.CONSUMER.CREATE.${stream}.*`,
    `${API}.CONSUMER.CREATE.${stream}.*.>`,
    `${API}.CONSUMER.INFO.${stream}.*`,
    `${API}.CONSUMER.DELETE.${stream}.*`,
    `${API}.CONSUMER.MSG.NEXT.${stream}.*`,
    `$JS.ACK.${stream}.>`,
  ];
}

/** Creating (or updating) a durable consumer, pulling from it and acking its messages: its owner's alone. */
function durableOwnership({ stream, durable }: Durable): string[] {
  return [
    `${API}.CONSUMER.DURABLE.CREATE.${stream}.${durable}`,
    `${API}.CONSUMER.CREATE.${stream}.${durable}`,
    `${API}.CONSUMER.CREATE.${stream}.${durable}.>`,
    `${API}.CONSUMER.MSG.NEXT.${stream}.${durable}`,
    `$JS.ACK.${stream}.${durable}.>`,
  ];
}

/** Its owner also inspects it. */
function ownDurableSubjects(durable: Durable): string[] {
  return [...durableOwnership(durable), `${API}.CONSUMER.INFO.${durable.stream}.${durable.durable}`];
}

/** What nobody but the owner may do to a durable: its ownership, and deleting it. */
function durableGuards(durable: Durable): string[] {
  return [...durableOwnership(durable), `${API}.CONSUMER.DELETE.${durable.stream}.${durable.durable}`];
}

interface Grant {
  /** Plain subjects published (stream subjects, core control messages). */
  readonly publishes: readonly string[];
  readonly subscribes: readonly string[];
  /** Streams read with consumers of its own (ordered consumers, message get). */
  readonly reads: readonly StreamName[];
  /** Streams whose state and messages it looks at (stream info, message get), without consumers. */
  readonly inspects: readonly StreamName[];
  readonly durables: readonly Durable[];
}

const ALL_DURABLES: readonly Durable[] = Object.values(DURABLE_CONSUMERS);
const any = (root: string): string => `${root}.>`;
const oneToken = (root: string): string => `${root}.*`;

/**
 * What each service does on the bus (see docs/pipeline.md): the gateway publishes raw traces, work items, its
 * lease and control messages, and reads its streams' events and the normalizers' presence; the normalizer reads
 * raw traces and work items and publishes events (and the record of a lost gateway into the raw trace) and its
 * presence; the audit log reads both logs.
 */
const GRANTS: Record<Exclude<PlatformIdentity, 'provisioner'>, Grant> = {
  gateway: {
    publishes: [any(SUBJECT_ROOTS.raw), any(SUBJECT_ROOTS.work), oneToken(SUBJECT_ROOTS.cancel), oneToken(SUBJECT_ROOTS.reader), oneToken(SUBJECT_ROOTS.gatewayLease)],
    subscribes: [any(SUBJECT_ROOTS.events), oneToken(SUBJECT_ROOTS.cancel), oneToken(SUBJECT_ROOTS.reader), oneToken(SUBJECT_ROOTS.normalizerPresence)],
    reads: [STREAM_NAMES.events, STREAM_NAMES.raw],
    inspects: [STREAM_NAMES.raw, STREAM_NAMES.work],
    durables: [],
  },
  normalizer: {
    // Holder queries: a replica asks, and answers for, the work items it holds (work-progress thread).
    publishes: [any(SUBJECT_ROOTS.events), any(SUBJECT_ROOTS.raw), oneToken(SUBJECT_ROOTS.workHolder), oneToken(SUBJECT_ROOTS.normalizerPresence)],
    subscribes: [any(SUBJECT_ROOTS.raw), oneToken(SUBJECT_ROOTS.gatewayLease), oneToken(SUBJECT_ROOTS.workHolder)],
    reads: [STREAM_NAMES.raw, STREAM_NAMES.events],
    inspects: [STREAM_NAMES.events, STREAM_NAMES.raw, STREAM_NAMES.work],
    durables: [DURABLE_CONSUMERS.normalizerWork],
  },
  'audit-log': {
    publishes: [],
    subscribes: [],
    reads: [],
    inspects: [STREAM_NAMES.events, STREAM_NAMES.raw],
    durables: [DURABLE_CONSUMERS.auditEvents, DURABLE_CONSUMERS.auditRaw],
  },
};

/**
 * The permissions of one platform user. A service may publish only its own subjects and reply only into its
 * own inbox prefix; it may not create, update, purge or delete a stream, nor touch another service's durable.
 * The provisioner administers the platform account (creates and updates the streams): everything in it.
 */
export function platformPermissions(identity: PlatformIdentity): SubjectPermissions {
  const inbox = any(inboxPrefixOf(identity));
  if (identity === 'provisioner') {
    return { publish: { allow: ['>'], deny: [] }, subscribe: { allow: ['>'], deny: [] } };
  }
  const grant = GRANTS[identity];
  const allow = new Set<string>([
    `${API}.INFO`,
    // Every service checks at start that the pipeline's streams exist (configuration and counts, no message).
    ...Object.values(STREAM_NAMES).map((stream) => `${API}.STREAM.INFO.${stream}`),
    inbox,
    ...grant.publishes,
    ...grant.reads.flatMap(streamReadSubjects),
    ...grant.inspects.flatMap((stream) => [`${API}.STREAM.INFO.${stream}`, `${API}.STREAM.MSG.GET.${stream}`, `${API}.DIRECT.GET.${stream}`, `${API}.DIRECT.GET.${stream}.>`]),
    ...grant.durables.flatMap(ownDurableSubjects),
  ]);
  const deny = ALL_DURABLES.filter((durable) => !grant.durables.includes(durable)).flatMap(durableGuards);
  return {
    publish: { allow: [...allow], deny },
    subscribe: { allow: [inbox, ...grant.subscribes], deny: [] },
  };
}

/**
 * What no user of a tenant's account may publish: the platform API its copy's source imports, and the
 * platform's flow-control subjects. Only the account's internal client (the stream source) uses them.
 */
const TENANT_IMPORTED_SERVICES = [`${PLATFORM_API_IN_TENANT}.>`, EVENTS_FLOW_CONTROL_SUBJECTS];

/**
 * The permissions of a tenant's backend in its own account, which holds only the tenant's events: read the
 * `LLM_EVENTS` copy with consumers of its own (durable ones included), subscribe to the live events, nothing
 * else. It cannot publish events, nor create, update, purge or delete the stream (the provisioner's job).
 */
export function backendPermissions(tenant: string): SubjectPermissions {
  const stream = STREAM_NAMES.events;
  return {
    publish: {
      allow: [`${API}.INFO`, ...streamReadSubjects(stream), `${API}.CONSUMER.DURABLE.CREATE.${stream}.*`, `${API}.CONSUMER.NAMES.${stream}`, `${API}.CONSUMER.LIST.${stream}`],
      deny: TENANT_IMPORTED_SERVICES,
    },
    subscribe: { allow: ['_INBOX.>', tenantEventsSubjects(tenant)], deny: [] },
  };
}

/**
 * A tenant account's administrator (an operator identity, never a backend's): creates and updates the account's
 * copy of the tenant's events.
 */
export function tenantProvisionerPermissions(): SubjectPermissions {
  return { publish: { allow: [any(API)], deny: TENANT_IMPORTED_SERVICES }, subscribe: { allow: ['_INBOX.>'], deny: [] } };
}
