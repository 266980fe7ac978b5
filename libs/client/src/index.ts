export { headerLookup, toNatsHeaders } from './nats-headers.js';
export { decodeEventMessage, encodeEventMessage, type EventMessage, type EventMessageError } from './event-message.js';
export {
  DEFAULT_STREAM_OPTIONS,
  ensurePipelineStreams,
  pipelineStreamConfigs,
  type PipelineStreamOptions,
} from './pipeline-streams.js';
export { connectPipeline, type ConnectPipelineOptions } from './connect-pipeline.js';
export { NatsReadinessProbe, type NatsReadiness } from './nats-readiness.js';
export {
  CheckpointedPublisher,
  DEFAULT_MAX_BUFFERED,
  storedMessageCount,
  type CheckpointedPublisherOptions,
  type FinishResult,
  type OutgoingMessage,
} from './checkpointed-publisher.js';
export { PublishError } from './publish-error.js';
export { RetryLoop, type RetryDelays } from './retry-loop.js';
export { LlmStreamClient } from './llm-stream-client.js';
export {
  CLIENT_DEFAULTS,
  type DurableTenantStreamsOptions,
  type LlmStreamClientOptions,
  type StreamOptions,
  type TenantStart,
  type TenantStreamsOptions,
} from './llm-stream-client-options.js';
export { EventSubscription } from './event-subscription.js';
export type {
  GapHandler,
  InvalidEventCode,
  InvalidEventHandler,
  InvalidEventReport,
  SubscriptionStats,
} from './subscription-reports.js';
export { LlmStreamClientError, type LlmStreamClientErrorCode } from './client-error.js';
export { StreamGapError } from './stream-gap-error.js';
export { memoryCheckpointStore, type SeqCheckpointStore } from './seq-checkpoint-store.js';
export {
  streamOutcome,
  type ExecutableToolCall,
  type StreamOutcome,
  type UnexecutableReason,
  type UnexecutableToolCall,
} from './stream-outcome.js';
export { StreamOutcomeCollector } from './stream-outcome-collector.js';
export {
  EventSequencer,
  type AcceptResult,
  type AcceptVerdict,
  type EventSequencerOptions,
  type Expiry,
  type Release,
  type SequencedEvent,
} from './event-sequencer.js';
export { OrderedReader, type OrderedReaderOptions } from './ordered-reader.js';
export { EventMessageEncoder } from './event-message-encoder.js';
export { TraceMessageEncoder } from './trace-message-encoder.js';
export { EncodedHeaders } from './encoded-headers.js';
export { headerBlock, headersOfBlock } from './header-block.js';
