import type { JetStreamManager, StoredMsg } from '@nats-io/jetstream';

const allowing = new WeakMap<JetStreamManager, Map<string, Promise<boolean>>>();

/**
 * Whether the stream answers direct gets (`allow_direct`), asked once per manager and stream: a get to a stream
 * without it reaches JetStream's API, which answers nothing, and waits out the request timeout. A look that
 * failed counts as false and is not remembered.
 */
export function allowsDirectGets(jsm: JetStreamManager, stream: string): Promise<boolean> {
  let streams = allowing.get(jsm);
  if (streams === undefined) {
    streams = new Map();
    allowing.set(jsm, streams);
  }
  let allowed = streams.get(stream);
  if (allowed === undefined) {
    const looks = streams;
    allowed = jsm.streams.info(stream).then(
      (info) => info.config.allow_direct,
      () => {
        looks.delete(stream);
        return false;
      },
    );
    streams.set(stream, allowed);
  }
  return allowed;
}

/**
 * The first message a stream holds for one subject after stream sequence `afterSeq`, or null, by a direct get
 * (`next_by_subj`: answered by the stream itself, no consumer created, no advisory sent). For the few messages
 * a new stream's subject holds when its reader starts, a few gets cost the server a fraction of an ordered
 * consumer's create, pull and delete. Only for a stream that {@link allowsDirectGets}.
 */
export function nextStoredMessage(jsm: JetStreamManager, stream: string, subject: string, afterSeq: number): Promise<StoredMsg | null> {
  return jsm.direct.getMessage(stream, { seq: afterSeq + 1, next_by_subj: subject });
}
