import {
  AckPolicy,
  DeliverPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  type ConsumerConfig,
  type ConsumerInfo,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import { nanos } from '@nats-io/nats-core';
import { STREAM_NAMES } from '@llm-stream/contract';
import { LlmStreamClientError } from './client-error.js';
import type { StartedConsumer } from './event-subscription.js';
import type { TenantStart } from './llm-stream-client-options.js';
import { MessageQueue } from './message-queue.js';

/**
 * Ordered consumers are read through nats.js's iterator, which pulls the next batch only as it advances: a
 * slow backend holds at most about one batch in memory.
 */
const ORDERED_CONSUME = { max_messages: 256, expires: 5_000 } as const;

/**
 * Durable consumers are read through a callback into the client's own queue (bounded by the server's
 * `max_ack_pending`), so that stopping never runs a deferred pull. A pull request outlives the reader that
 * made it until it expires, and the server may deliver into it; short pulls keep that time short.
 */
const DURABLE_CONSUME = { max_messages: 256, expires: 2_000 } as const;

/**
 * Messages handed back when a durable reader stops are redelivered after this delay, once every pull
 * request of the stopped reader has expired: redelivered sooner, they could go to that dead reader and
 * wait a whole ack wait.
 */
export const HAND_BACK_DELAY_MS = DURABLE_CONSUME.expires + 1_000;

/**
 * An ordered consumer (ephemeral, no acks, opened again at the next stream sequence after a reconnect) over
 * `filter`, from `start`. `new` and a Date are resolved to a stream sequence first, so that every reopening
 * (ours, or nats.js's own recovery, which restarts an ordered consumer that has delivered nothing yet from
 * sequence 1) keeps the starting point instead of replaying the whole history.
 */
export function orderedConsumer(
  js: JetStreamClient,
  jsm: () => Promise<JetStreamManager>,
  filter: string,
  start: TenantStart,
): () => Promise<StartedConsumer> {
  return async () => {
    const startSeq = start === 'all' ? 1 : await resolveStartSeq(await jsm(), filter, start);
    return {
      open: async (resumeFrom) => {
        const consumer = await js.consumers.get(STREAM_NAMES.events, { filter_subjects: filter, opt_start_seq: resumeFrom ?? startSeq });
        const messages = await consumer.consume(ORDERED_CONSUME);
        return {
          messages: messages[Symbol.asyncIterator](),
          stop: () => {
            void messages.close();
            // Deleted rather than left to expire on the server (an ordered consumer is never reused).
            void consumer.delete().catch(() => false);
          },
        };
      },
    };
  };
}

/** The first stream sequence a `new` or time-based consumer would deliver. */
async function resolveStartSeq(jsm: JetStreamManager, filter: string, start: 'new' | Date): Promise<number> {
  if (start === 'new') return (await jsm.streams.info(STREAM_NAMES.events)).state.last_seq + 1;
  // The server resolves a start time to a sequence when it creates a consumer, and reports the one before it.
  const probe = await jsm.consumers.add(STREAM_NAMES.events, {
    ack_policy: AckPolicy.None,
    deliver_policy: DeliverPolicy.StartTime,
    opt_start_time: start.toISOString(),
    filter_subject: filter,
    inactive_threshold: nanos(10_000),
    mem_storage: true,
  });
  await jsm.consumers.delete(STREAM_NAMES.events, probe.name).catch(() => false);
  return probe.delivered.stream_seq + 1;
}

export interface DurableConsumerSettings {
  readonly name: string;
  readonly filter: string;
  readonly since: TenantStart;
  readonly ackWaitMs: number;
  /** At most this many delivered, unacknowledged messages: the server stops, nothing overflows the client. */
  readonly maxAckPending: number;
}

/**
 * A durable pull consumer with explicit acks, created on first use and continued afterwards. Its state
 * (which messages are acknowledged) lives on the server, so it outlives the backend's process.
 */
export function durableConsumer(
  js: JetStreamClient,
  jsm: () => Promise<JetStreamManager>,
  settings: DurableConsumerSettings,
): () => Promise<StartedConsumer> {
  return async () => {
    const manager = await jsm();
    const info = await existingOrNew(manager, settings);
    const filters = info.config.filter_subjects ?? (info.config.filter_subject === undefined ? [] : [info.config.filter_subject]);
    if (filters.length !== 1 || filters[0] !== settings.filter) {
      const reads = filters.join(', ') || 'everything';
      throw new LlmStreamClientError('consumer_mismatch', `durable consumer ${settings.name} reads ${reads}, not ${settings.filter}`);
    }
    return {
      open: async () => {
        const queue = new MessageQueue<JsMsg>();
        const consumer = await js.consumers.get(STREAM_NAMES.events, settings.name);
        const messages = await consumer.consume({
          ...DURABLE_CONSUME,
          callback: (msg) => {
            queue.push(msg);
          },
        });
        void messages.closed().then(() => {
          queue.end();
        });
        return {
          messages: queue,
          stop: () => {
            void messages.close();
            queue.end();
          },
          takeReceived: () => queue.takeAll(),
        };
      },
      redelivery: {
        pendingAtStart: info.num_ack_pending,
        withinMs: Math.max(HAND_BACK_DELAY_MS, Math.ceil((info.config.ack_wait ?? nanos(settings.ackWaitMs)) / 1_000_000)),
      },
    };
  };
}

async function existingOrNew(jsm: JetStreamManager, settings: DurableConsumerSettings): Promise<ConsumerInfo> {
  try {
    return await jsm.consumers.info(STREAM_NAMES.events, settings.name);
  } catch (error) {
    if (!(error instanceof JetStreamApiError && error.code === JetStreamApiCodes.ConsumerNotFound)) throw error;
  }
  const config: Partial<ConsumerConfig> = {
    durable_name: settings.name,
    filter_subject: settings.filter,
    ack_policy: AckPolicy.Explicit,
    ack_wait: nanos(settings.ackWaitMs),
    max_deliver: -1,
    max_ack_pending: settings.maxAckPending,
    ...startConfig(settings.since),
  };
  return jsm.consumers.add(STREAM_NAMES.events, config);
}

function startConfig(since: TenantStart): Partial<ConsumerConfig> {
  if (since === 'all') return { deliver_policy: DeliverPolicy.All };
  if (since === 'new') return { deliver_policy: DeliverPolicy.New };
  return { deliver_policy: DeliverPolicy.StartTime, opt_start_time: since.toISOString() };
}
