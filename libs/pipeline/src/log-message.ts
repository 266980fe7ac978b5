import type { JsMsg, StoredMsg } from '@nats-io/jetstream';
import type { Msg } from '@nats-io/nats-core';
import type { HeaderLookup } from '@llm-stream/contract';
import { headerValues } from './header-values.js';
import { messageHeaderLookup } from './message-header-lookup.js';

/** A message of a subject's log as a reader hands it out: its headers parsed once (see messageHeaderLookup). */
export interface LogMessage {
  readonly subject: string;
  readonly data: Uint8Array;
  string(): string;
  /** A header's value, `undefined` when absent. */
  readonly header: HeaderLookup;
}

/** A core or JetStream message as a {@link LogMessage}. */
export function toLogMessage(message: Msg | JsMsg): LogMessage {
  return { subject: message.subject, data: message.data, string: () => message.string(), header: messageHeaderLookup(message) };
}

/** A message read by a direct get as a {@link LogMessage}. */
export function storedLogMessage(message: StoredMsg): LogMessage {
  return { subject: message.subject, data: message.data, string: () => message.string(), header: headerValues(message.header) };
}
