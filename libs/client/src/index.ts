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
