/**
 * One message for a publisher's subject. `msgId` is its `Nats-Msg-Id`; `position` is its 1-based place in the
 * subject (an event's seq, a record's raw_seq), increasing in the order the owner publishes.
 */
export interface OutgoingMessage {
  readonly data: string;
  readonly msgId: string;
  readonly position: number;
  /** The message's headers as a serialized NATS header block (see header-block.ts and the message encoders). */
  readonly headerBlock: string;
}

/** The message's header block with one more header line. */
export function withHeader(message: OutgoingMessage, name: string, value: string): OutgoingMessage {
  const block = message.headerBlock;
  // A block ends with an empty line: the new one goes before it.
  return { ...message, headerBlock: `${block.slice(0, block.length - 2)}${name}: ${value}\r\n\r\n` };
}
