export { CONTRACT_VERSION } from './contract-version.js';
export { assertNever } from './assert-never.js';
export { ok, err, type Result } from './result.js';
export { jsonSyntaxProblem } from './json-syntax-problem.js';

export { BLOCK_KINDS, blockId, type BlockKind, type BlockRef, type BlockVisibility } from './events/block.js';
export { ALLOWED_DELTA_KINDS, DELTA_KINDS, isDeltaAllowed, type Delta, type DeltaKind } from './events/delta.js';
export {
  parseToolArguments,
  type ToolArguments,
  type ToolArgumentsError,
} from './events/tool-arguments.js';
export { PROVIDERS, isProviderName, type ProviderName } from './events/provider.js';
export { ROUTE_NAME_PATTERN, isValidRouteName } from './events/route-name.js';
export type { JsonValue, ProviderMetadata } from './events/provider-metadata.js';
export { STOP_REASONS, type StopReason } from './events/stop-reason.js';
export {
  ERROR_CATEGORIES,
  FAILURE_STATUSES,
  type ErrorCategory,
  type FailureStatus,
  type StreamErrorInfo,
} from './events/stream-error.js';
export type { CacheCreationUsage, Usage } from './events/usage.js';
export {
  EVENT_TYPES,
  WARNING_CODES,
  isBlockEvent,
  isTerminalEvent,
  terminalStatusOf,
  type BlockDeltaEvent,
  type BlockEvent,
  type BlockStartEvent,
  type BlockStopEvent,
  type ContractEvent,
  type ContractEventType,
  type EventEnvelope,
  type StreamDoneEvent,
  type StreamErrorEvent,
  type StreamHeartbeatEvent,
  type StreamStartEvent,
  type StreamWarning,
  type StreamWarningEvent,
  type TerminalEvent,
  type TerminalStatus,
  type WarningCode,
} from './events/contract-event.js';

export type {
  AppendBlockInput,
  CloseBlockInput,
  FailInput,
  FinishInput,
  HeartbeatInput,
  MachineInput,
  OpenBlockInput,
  WarnInput,
} from './machine/machine-input.js';
export { StreamMachine, type StreamIdentity } from './machine/stream-machine.js';
export { isTerminalState, type BlockState, type StreamState } from './machine/stream-state.js';

export {
  ATTEMPT_END_REASONS,
  GATEWAY_SHUTDOWN_REASONS,
  TRACE_RECORD_KINDS,
  type AttemptEndReason,
  type AttemptEndRecord,
  type AttemptStartRecord,
  type ClientRequestRecord,
  type ClientCancelRecord,
  type FrameRecord,
  type GatewayLostRecord,
  type GatewayShutdownReason,
  type GatewayShutdownRecord,
  type HeartbeatRecord,
  type StreamOpenRecord,
  type TraceRecord,
  type TraceRecordKind,
  type UpstreamResponseRecord,
} from './trace/trace-record.js';
export {
  decodeTraceRecord,
  encodeTraceRecord,
  type EncodedMessage,
  type HeaderLookup,
  type TraceCodecError,
  type TraceStreamInfo,
} from './trace/trace-codec.js';

export {
  HEADERS,
  STREAM_ID_PATTERN,
  STREAM_NAMES,
  SUBJECT_ROOTS,
  TENANT_PATTERN,
  DURABLE_CONSUMERS,
  cancelSubject,
  eventMsgId,
  eventsSubject,
  gatewayLeaseSubject,
  workHolderSubject,
  WORK_HOLDER_QUERIES,
  NORMALIZER_PRESENCE_SUBJECTS,
  normalizerPresenceSubject,
  isValidStreamId,
  isValidTenant,
  parseStreamSubject,
  rawMsgId,
  rawSubject,
  readerSubject,
  tenantEventsWildcard,
  workSubject,
} from './nats/subjects.js';

export {
  CONTRACT_SCHEMA,
  CONTRACT_SCHEMA_FILE_NAME,
  CONTRACT_SCHEMA_ID,
  EVENT_SCHEMA_NAMES,
  renderContractSchema,
} from './schema/contract-schema.js';
export { SCHEMA_DEFINITIONS, type JsonSchema } from './schema/schema-definitions.js';
export { validateEvent, type EventValidationError, type EventValidationIssue } from './schema/validate-event.js';
export { parseEventLine, type EventLineError, type InvalidJsonError } from './schema/parse-event-line.js';

export { INVARIANT_RULES, INVARIANT_RULE_DESCRIPTIONS, type InvariantRule } from './invariants/invariant-rule.js';
export { checkInvariants, type InvariantOptions, type InvariantViolation } from './invariants/check-invariants.js';

export {
  ASSEMBLY_PROBLEM_CODES,
  type AssembledBlock,
  type AssembledResult,
  type AssembledStatus,
  type AssemblyProblem,
  type AssemblyProblemCode,
} from './assembler/assembled-result.js';
export { Assembler } from './assembler/assembler.js';
export { assemble } from './assembler/assemble.js';
export { decodeEventMessage, type EventMessageError } from './nats/event-message.js';
export { decodeWorkItem, encodeWorkItem, type WorkItem, type WorkItemError } from './nats/work-item.js';
export {
  CANCEL_SUBJECTS,
  GATEWAY_LEASE_SUBJECTS,
  NORMALIZER_PRESENCE_INTERVAL_MS,
  READER_SUBJECTS,
  controlSubjectStreamId,
  decodeNormalizerPresence,
  encodeNormalizerPresence,
  presenceSubjectReplicaId,
  type NormalizerPresence,
  decodeCancelReply,
  decodeCancelRequest,
  decodeGatewayLease,
  decodeReaderNotice,
  encodeCancelReply,
  encodeCancelRequest,
  encodeGatewayLease,
  encodeReaderNotice,
  leaseSubjectGatewayId,
  type CancelReply,
  type CancelRequest,
  type ControlMessageError,
  type GatewayLease,
  type ReaderNotice,
} from './nats/control-messages.js';
export { gatewayInstanceId, parseGatewayInstanceId, type GatewayInstance } from './nats/gateway-instance.js';
export {
  CHAIN_BREAK_REASONS,
  STREAM_STATUSES,
  type ChainBreak,
  type ChainBreakReason,
  type EventTime,
  type RawTrace,
  type RawTracePage,
  type RawTraceReplaySummary,
  type RawTraceEntry,
  type StatsBucket,
  type StatsTimeline,
  type StoredTrace,
  type StoredTracePage,
  type StreamDetail,
  type StreamList,
  type StreamRecord,
  type StreamStatus,
  type UnknownEventGroup,
  type UnknownEvents,
  type VerifyReport,
} from './audit-api/audit-api.js';
