import type { JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { HEADERS, STREAM_NAMES, eventsSubject, type ContractEvent } from '@llm-stream/contract';
import { waitFor } from '@llm-stream/testing';
import { storedMessageCount } from '@llm-stream/pipeline';
import { encodeEventMessage } from '@llm-stream/pipeline';
import { toNatsHeaders } from '@llm-stream/pipeline';

/** Reconnect for ever, quickly: a test kills and restarts the server under live connections. */
export const RECONNECTING = { maxReconnectAttempts: -1, reconnectTimeWait: 100 } as const;

/**
 * Core-publishes events the way the normalizer does (`encodeEventMessage`, `Nats-Msg-Id = <stream_id>:<seq>`).
 * `msgIdSuffix` gives them another Msg-Id: a republish the server no longer recognises (after its duplicate
 * window, or after the stored copy was deleted), so storage really holds the seq twice.
 */
export async function publishEvents(nc: NatsConnection, tenant: string, events: readonly ContractEvent[], msgIdSuffix = ''): Promise<void> {
  for (const event of events) {
    const message = encodeEventMessage(event, tenant);
    const headers = msgIdSuffix === '' ? message.headers : { ...message.headers, [HEADERS.msgId]: `${message.msgId}${msgIdSuffix}` };
    nc.publish(message.subject, message.data, { headers: toNatsHeaders(headers) });
  }
  await nc.flush();
}

/** Publishes a raw payload on a stream's subject (an invalid message). */
export async function publishRaw(nc: NatsConnection, tenant: string, streamId: string, data: string): Promise<void> {
  nc.publish(eventsSubject(tenant, streamId), data);
  await nc.flush();
}

/** Waits until LLM_EVENTS holds `count` messages for the stream's subject. */
export async function waitForStored(jsm: JetStreamManager, tenant: string, streamId: string, count: number): Promise<void> {
  const subject = eventsSubject(tenant, streamId);
  await waitFor(async () => (await storedMessageCount(jsm, STREAM_NAMES.events, subject)) >= count, {
    description: `${count} messages stored on ${subject}`,
  });
}

/** Publishes events and waits until storage holds them (plus `alreadyStored` earlier messages of the stream). */
export async function publishStored(
  nc: NatsConnection,
  jsm: JetStreamManager,
  tenant: string,
  events: readonly ContractEvent[],
  alreadyStored = 0,
): Promise<void> {
  await publishEvents(nc, tenant, events);
  const first = events[0];
  if (first !== undefined) await waitForStored(jsm, tenant, first.stream_id, alreadyStored + events.length);
}

/** The next `count` events of an iterator that stays open. */
export async function take(iterator: AsyncIterator<ContractEvent>, count: number): Promise<ContractEvent[]> {
  const events: ContractEvent[] = [];
  while (events.length < count) {
    const next = await iterator.next();
    if (next.done === true) throw new Error(`the iteration ended after ${events.length} of ${count} events`);
    events.push(next.value);
  }
  return events;
}

/** Every event of an iteration that ends by itself. */
export async function collect(events: AsyncIterable<ContractEvent>): Promise<ContractEvent[]> {
  const all: ContractEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

/** `stream_id:seq` of each event, in delivery order: what exactly-once and ordering assertions compare. */
export function keys(events: readonly ContractEvent[]): string[] {
  return events.map((event) => `${event.stream_id}:${event.seq}`);
}

/** The events of one stream, in delivery order. */
export function ofStream(events: readonly ContractEvent[], streamId: string): number[] {
  return events.filter((event) => event.stream_id === streamId).map((event) => event.seq);
}

/** 1, 2, ..., n */
export function range(n: number): number[] {
  return Array.from({ length: n }, (_, index) => index + 1);
}
