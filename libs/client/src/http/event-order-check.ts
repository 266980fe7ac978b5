import type { ContractEvent } from '@llm-stream/contract';

/** What to do with the next event read from the gateway. */
export type OrderVerdict =
  | { readonly kind: 'deliver' }
  /** Already delivered (a resume that overlapped): dropped. */
  | { readonly kind: 'duplicate' }
  /** An event is missing before this one. */
  | { readonly kind: 'gap'; readonly seq: number; readonly message: string };

export interface EventOrderCheckOptions {
  /** The reading starts after this seq (0: from the stream's first event). */
  readonly afterSeq: number;
  /**
   * Nothing is withheld from this reader (its API key may see reasoning blocks): seq must then go up by
   * exactly 1. Otherwise the gateway withholds reasoning blocks and seq may skip the numbers of their events.
   */
  readonly contiguous: boolean;
}

/**
 * Checks that the events of one stream, read over one or more connections, are delivered once each and
 * none is missing. Pure: it only looks at the events it is given.
 *
 * A seq at or below the last delivered one is a duplicate. A seq that skips numbers is a gap when nothing
 * may be withheld; in a projection (reasoning withheld, see the gateway's projection) it is a gap when it
 * provably lost a visible event: a stream read from its start that does not begin with `stream.start` at
 * seq 1, or a delta or stop of a block whose `block.start` never came (every event of a visible block is
 * visible).
 */
export class EventOrderCheck {
  private last: number;
  private readonly fromStart: boolean;
  private readonly openBlocks = new Set<number>();

  constructor(private readonly options: EventOrderCheckOptions) {
    this.last = options.afterSeq;
    this.fromStart = options.afterSeq === 0;
  }

  /** The seq of the last delivered event (the reading's `Last-Event-ID`). */
  get lastSeq(): number {
    return this.last;
  }

  accept(event: ContractEvent): OrderVerdict {
    if (event.seq <= this.last) return { kind: 'duplicate' };
    const gap = this.missing(event);
    if (gap !== undefined) return { kind: 'gap', seq: event.seq, message: gap };
    this.last = event.seq;
    if (event.type === 'block.start') this.openBlocks.add(event.block.index);
    if (event.type === 'block.stop') this.openBlocks.delete(event.block.index);
    return { kind: 'deliver' };
  }

  private missing(event: ContractEvent): string | undefined {
    const expected = this.last + 1;
    if (this.options.contiguous && event.seq !== expected) return `seq ${expected} is missing (got ${event.seq})`;
    if (!this.fromStart) return undefined;
    if (this.last === 0 && (event.type !== 'stream.start' || event.seq !== 1))
      return `the stream's first event is ${event.type} at seq ${event.seq}, not stream.start at seq 1`;
    if ((event.type === 'block.delta' || event.type === 'block.stop') && !this.openBlocks.has(event.block.index))
      return `${event.type} of block ${event.block.index} at seq ${event.seq}, whose block.start never arrived`;
    return undefined;
  }
}
