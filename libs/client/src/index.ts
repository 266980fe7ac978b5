export { headerLookup, toNatsHeaders } from './nats-headers.js';
export { decodeEventMessage, encodeEventMessage, type EventMessage, type EventMessageError } from './event-message.js';
export {
  DEFAULT_STREAM_OPTIONS,
  ensurePipelineStreams,
  pipelineStreamConfigs,
  type PipelineStreamOptions,
} from './pipeline-streams.js';
export {
  CheckpointedPublisher,
  storedMessageCount,
  type CheckpointedPublisherOptions,
  type FinishResult,
  type OutgoingMessage,
} from './checkpointed-publisher.js';
export { PublishError } from './publish-error.js';
export { OrderedReader, type OrderedReaderOptions } from './ordered-reader.js';
