export { headerLookup, toNatsHeaders } from './nats-headers.js';
export { encodeEventMessage, type EventMessage } from './event-message.js';
export {
  DEFAULT_STREAM_OPTIONS,
  ensurePipelineStreams,
  pipelineStreamConfigs,
  type PipelineStreamOptions,
} from './pipeline-streams.js';
export { connectPipeline, type ConnectPipelineOptions } from './connect-pipeline.js';
export { NatsReadinessProbe, type NatsReadiness } from './nats-readiness.js';
export { AckedPublisher, DEFAULT_MAX_UNACKED, type AckedPublisherOptions, type FinishResult } from './acks/acked-publisher.js';
export type { OutgoingMessage } from './acks/outgoing-message.js';
export { readPubAck, type PubAck } from './acks/pub-ack.js';
export { storedMessageCount } from './stored-message-count.js';
export { PublishError } from './publish-error.js';
export { missingPositions, storedPositions } from './stored-positions.js';
export { RetryLoop, type RetryDelays } from './retry-loop.js';
export { OrderedReader, type OrderedReaderOptions } from './ordered-reader.js';
export { headerValues } from './header-values.js';
export { messageHeaderLookup, parseHeaderBlock, readsRawHeaders } from './message-header-lookup.js';
export { LiveLogGapError } from './live-log-gap-error.js';
export { DEFAULT_MAX_WAITING, LiveLogReader, type LiveLogReaderOptions, type LiveLogStats, type LogPosition } from './live-log-reader.js';
export { toLogMessage, type LogMessage } from './log-message.js';
export { EventMessageEncoder } from './event-message-encoder.js';
export { TraceMessageEncoder } from './trace-message-encoder.js';
export { EncodedHeaders } from './encoded-headers.js';
export { headerBlock, headersOfBlock } from './header-block.js';
export { DurableConsumerLoop, type DurableConsumerLoopOptions } from './durable/durable-consumer-loop.js';
export { ensureDurableConsumer, type DurableConsumerDefinition } from './durable/durable-consumer.js';
export { DurableConsumerError } from './durable/durable-consumer-error.js';
export type { BatchMessageHandler, DeliveryMode, FailureSettlement, SingleMessageHandler } from './durable/message-delivery.js';
export { ACK, HELD, TERM, nak, settle, type Settlement } from './durable/settlement.js';
export { WakeablePause } from './wakeable-pause.js';
export { ackSubjectOf } from './progress/ack-subject.js';
export { startWorkerThread } from './progress/start-worker-thread.js';
export { WorkProgressKeeper, isHeldElsewhere, type WorkProgressSettings } from './progress/work-progress-keeper.js';
export { MAIN_STALL_MS as WORK_PROGRESS_MAIN_STALL_MS } from './progress/work-progress-protocol.js';
export { ensureStream, missingPipelineStreams } from './pipeline-streams.js';
export { NatsAuthError } from './auth/nats-auth-error.js';
export {
  PLATFORM_ACCOUNT,
  PLATFORM_IDENTITIES,
  SERVICE_IDENTITIES,
  inboxPrefixOf,
  isServiceIdentity,
  tenantAccount,
  tenantEventsSubjects,
  tenantUser,
  type PlatformIdentity,
  type ServiceIdentity,
  type TenantRole,
} from './auth/nats-identities.js';
export { backendPermissions, platformPermissions, tenantProvisionerPermissions, type SubjectPermissions } from './auth/nats-permissions.js';
export { generateNatsCredentials, type NatsCredentials, type NatsUserCredentials } from './auth/nats-credentials.js';
export { natsAuthServerConfig, type NatsAuthServerConfigOptions, type NatsServerTls } from './auth/nats-server-config.js';
export { connectNats, connectionAuthOptions, type NatsClientTls, type NatsConnectOptions, type NatsConnectionAuth } from './auth/nats-connection-auth.js';
export { provisionPipeline, tenantEventsStreamConfig, type ProvisionPipelineOptions, type ProvisionReport } from './auth/provision-pipeline.js';
export { parseNatsCredentials, type NatsCredentialsError } from './auth/parse-nats-credentials.js';
export { connectNatsUser, type ConnectNatsUserOptions } from './auth/connect-nats-user.js';
