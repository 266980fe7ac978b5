/**
 * Where a durable subscription keeps, per stream, the last seq the backend has finished processing.
 *
 * Without a store the subscription removes duplicates with an in-memory map, which a restart empties: an
 * event whose ack had not reached the server when the process died is delivered again after the restart.
 * A store closes that window: `save` runs before the ack, and after a restart `load` says where each stream
 * continues. For exactly-once effects, write the seq in the same transaction as the backend's own effect and
 * read it back in `load` (then `save` can do nothing): whatever the crash point, the effect and the seq
 * are either both committed or both absent.
 */
export interface SeqCheckpointStore {
  /** The last processed seq of a stream, or `undefined` if the backend has processed none of it. */
  load(streamId: string): Promise<number | undefined> | number | undefined;
  /** Called once the backend has processed `seq` (its loop asked for the next event), before the ack. */
  save(streamId: string, seq: number): Promise<void> | void;
}

/**
 * A store in a Map: for tests and for a backend that shares one store between successive subscriptions in
 * the same process. It does not survive the process.
 */
export function memoryCheckpointStore(): SeqCheckpointStore & { readonly entries: ReadonlyMap<string, number> } {
  const entries = new Map<string, number>();
  return {
    entries,
    load: (streamId) => entries.get(streamId),
    save: (streamId, seq) => {
      entries.set(streamId, Math.max(seq, entries.get(streamId) ?? 0));
    },
  };
}
