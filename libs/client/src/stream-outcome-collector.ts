import { Assembler, isTerminalEvent, type ContractEvent } from '@llm-stream/contract';
import { streamOutcome, type StreamOutcome } from './stream-outcome.js';

/**
 * Assembles many interleaved streams (a tenant subscription) into their outcomes: one contract
 * {@link Assembler} per open stream, handed back as a {@link StreamOutcome} with the stream's terminal event.
 *
 * Only streams seen from their stream.start are assembled. Events of a stream first met mid-way (a
 * subscription that began after the stream did) are counted in {@link ignoredEvents} and otherwise ignored:
 * an outcome built from part of a stream would report a wrong text and wrong tool calls.
 */
export class StreamOutcomeCollector {
  private readonly open = new Map<string, Assembler>();
  private ignored = 0;

  /** Adds one event (in its stream's seq order); returns the stream's outcome when the event ends it. */
  push(event: ContractEvent): StreamOutcome | undefined {
    let assembler = this.open.get(event.stream_id);
    if (assembler === undefined) {
      if (event.type !== 'stream.start') {
        this.ignored += 1;
        return undefined;
      }
      assembler = new Assembler();
      this.open.set(event.stream_id, assembler);
    }
    assembler.push(event);
    if (!isTerminalEvent(event)) return undefined;
    this.open.delete(event.stream_id);
    return streamOutcome(event.stream_id, assembler.result());
  }

  /** Streams started and not yet ended. */
  get openStreams(): number {
    return this.open.size;
  }

  /** Events of streams not seen from their start. */
  get ignoredEvents(): number {
    return this.ignored;
  }

  /** Drops a stream's partial assembly (a stream the backend stopped caring about). */
  forget(streamId: string): void {
    this.open.delete(streamId);
  }
}
