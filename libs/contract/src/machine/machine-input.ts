import type { BlockKind } from '../events/block.js';
import type { StreamWarning } from '../events/contract-event.js';
import type { Delta } from '../events/delta.js';
import type { ProviderMetadata } from '../events/provider-metadata.js';
import type { StopReason } from '../events/stop-reason.js';
import type { FailureStatus, StreamErrorInfo } from '../events/stream-error.js';
import type { Usage } from '../events/usage.js';

/**
 * What an adapter tells the state machine. Blocks are named by the adapter's own `key` (an Anthropic
 * content index, a Responses item id, `tool:3` for an OpenAI chat tool call index...); the machine turns
 * keys into public block indexes in order of first appearance, so adapters never count blocks themselves.
 */
export type MachineInput =
  | OpenBlockInput
  | AppendBlockInput
  | CloseBlockInput
  | FinishInput
  | FailInput
  | WarnInput
  | HeartbeatInput;

export interface OpenBlockInput {
  readonly type: 'block.open';
  readonly key: string;
  readonly kind: BlockKind;
  readonly name?: string;
  readonly call_id?: string;
}

export interface AppendBlockInput {
  readonly type: 'block.append';
  readonly key: string;
  readonly delta: Delta;
}

export interface CloseBlockInput {
  readonly type: 'block.close';
  readonly key: string;
  readonly provider_metadata?: ProviderMetadata;
}

/** The provider confirmed the end. */
export interface FinishInput {
  readonly type: 'finish';
  readonly stop_reason: StopReason;
  readonly provider_stop_reason: string | null;
  readonly usage?: Usage;
  readonly response_id?: string;
  readonly provider_model?: string;
  readonly provider_metadata?: ProviderMetadata;
}

/** The stream cannot complete: a provider error, a protocol error, or the transport ended first. */
export interface FailInput {
  readonly type: 'fail';
  readonly status: FailureStatus;
  readonly error: StreamErrorInfo;
}

export interface WarnInput {
  readonly type: 'warn';
  readonly warning: StreamWarning;
}

export interface HeartbeatInput {
  readonly type: 'heartbeat';
}
