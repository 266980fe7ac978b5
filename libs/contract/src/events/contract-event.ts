import type { BlockKind, BlockRef, BlockVisibility } from './block.js';
import type { Delta } from './delta.js';
import type { ProviderName } from './provider.js';
import type { ProviderMetadata } from './provider-metadata.js';
import type { StopReason } from './stop-reason.js';
import type { FailureStatus, StreamErrorInfo } from './stream-error.js';
import type { Usage } from './usage.js';

/** Every public event type, in the order a stream normally meets them. */
export const EVENT_TYPES = [
  'stream.start',
  'block.start',
  'block.delta',
  'block.stop',
  'stream.done',
  'stream.error',
  'stream.heartbeat',
  'stream.warning',
] as const;
export type ContractEventType = (typeof EVENT_TYPES)[number];

/** Fields every event carries. */
export interface EventEnvelope {
  /** The stream this event belongs to; one per stream. */
  readonly stream_id: string;
  /** Assigned by the state machine: 1 for `stream.start`, then +1 per event in the full-truth log. */
  readonly seq: number;
  /** Receive time of the input that caused the event, in ms since the epoch. */
  readonly ts: number;
}

/**
 * The gateway accepted the stream and assigned its id. It says nothing about the provider having started.
 */
export interface StreamStartEvent extends EventEnvelope {
  readonly type: 'stream.start';
  readonly provider: ProviderName;
  /** The model the client asked for. */
  readonly model: string;
  readonly tenant: string;
  /**
   * The gateway route the stream went through (since 1.1.0): a protocol name for the default route of that
   * protocol, else a route of the gateway's route file. Absent when normalized outside a gateway.
   */
  readonly route?: string;
}

/** Opens a block. A tool call carries its `name` and `call_id` when the provider sent them. */
export interface BlockStartEvent extends EventEnvelope {
  readonly type: 'block.start';
  readonly block: BlockRef;
  readonly name?: string;
  readonly call_id?: string;
  /** Present (and `internal`) exactly on reasoning blocks. */
  readonly visibility?: BlockVisibility;
}

/** Appends an immutable fragment to an open block. */
export interface BlockDeltaEvent extends EventEnvelope {
  readonly type: 'block.delta';
  readonly block: BlockRef;
  readonly delta: Delta;
}

/** Closes a block; no delta may follow for it. Opaque provider data rides here. */
export interface BlockStopEvent extends EventEnvelope {
  readonly type: 'block.stop';
  readonly block: BlockRef;
  readonly provider_metadata?: ProviderMetadata;
}

/** The provider confirmed a normal end. Terminal. */
export interface StreamDoneEvent extends EventEnvelope {
  readonly type: 'stream.done';
  readonly status: 'completed';
  readonly stop_reason: StopReason;
  /** The provider's raw reason (`stop`, `end_turn`, `STOP`, `max_output_tokens`...), `null` if it sent none. */
  readonly provider_stop_reason: string | null;
  /** Present when the provider reported usage. */
  readonly usage?: Usage;
  /** The provider's response or message id. */
  readonly response_id?: string;
  /** The model id the provider reported (often more specific than the requested one). */
  readonly provider_model?: string;
  /** Opaque provider data that belongs to the response rather than to one block. */
  readonly provider_metadata?: ProviderMetadata;
}

/**
 * The stream ended without a confirmed result: `failed` (provider error or unambiguous protocol error) or
 * `interrupted` (transport ended, timed out or was cancelled first). Terminal. Open blocks are NOT stopped.
 */
export interface StreamErrorEvent extends EventEnvelope {
  readonly type: 'stream.error';
  readonly status: FailureStatus;
  readonly error: StreamErrorInfo;
}

/** The gateway's own keep-alive while the upstream is silent. Not progress; optional for clients. */
export interface StreamHeartbeatEvent extends EventEnvelope {
  readonly type: 'stream.heartbeat';
}

/** Something was skipped or looked odd (an unknown provider event, a `*.done` text mismatch). Optional. */
export interface StreamWarningEvent extends EventEnvelope {
  readonly type: 'stream.warning';
  readonly warning: StreamWarning;
}

export const WARNING_CODES = ['unknown_event', 'unknown_part', 'text_mismatch', 'ignored_input'] as const;
export type WarningCode = (typeof WARNING_CODES)[number];

export interface StreamWarning {
  readonly code: WarningCode;
  readonly message: string;
  /** The provider's event or part type that caused it, when there is one. */
  readonly provider_event_type?: string;
}

/** The public contract: one union keyed on `type`. */
export type ContractEvent =
  | StreamStartEvent
  | BlockStartEvent
  | BlockDeltaEvent
  | BlockStopEvent
  | StreamDoneEvent
  | StreamErrorEvent
  | StreamHeartbeatEvent
  | StreamWarningEvent;

/** Events that end a stream. */
export type TerminalEvent = StreamDoneEvent | StreamErrorEvent;

/** Events about one block. */
export type BlockEvent = BlockStartEvent | BlockDeltaEvent | BlockStopEvent;

/** The three terminal states of a stream. */
export type TerminalStatus = 'completed' | FailureStatus;

export function isTerminalEvent(event: ContractEvent): event is TerminalEvent {
  return event.type === 'stream.done' || event.type === 'stream.error';
}

export function isBlockEvent(event: ContractEvent): event is BlockEvent {
  return event.type === 'block.start' || event.type === 'block.delta' || event.type === 'block.stop';
}

export function terminalStatusOf(event: TerminalEvent): TerminalStatus {
  return event.status;
}

export type { BlockKind };
