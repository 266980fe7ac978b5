import type { JetStreamManager } from '@nats-io/jetstream';

/** How many messages a stream holds for one (literal) subject: for readers that must learn what is stored. */
export async function storedMessageCount(jsm: JetStreamManager, streamName: string, subject: string): Promise<number> {
  const info = await jsm.streams.info(streamName, { subjects_filter: subject });
  return info.state.subjects?.[subject] ?? 0;
}
