import type { SeenEvent } from '../recorded-run.js';

/** Gaps, duplicates and terminal events of one reader's sequence (each seq must follow the previous by 1, from 1). */
export interface SequenceFindings {
  readonly gaps: number;
  readonly duplicates: number;
  readonly terminals: number;
}

export function isTerminalType(type: string): boolean {
  return type === 'stream.done' || type === 'stream.error';
}

export function sequenceFindings(events: readonly Pick<SeenEvent, 'seq' | 'type'>[]): SequenceFindings {
  let gaps = 0;
  let duplicates = 0;
  let terminals = 0;
  let last = 0;
  for (const event of events) {
    if (isTerminalType(event.type)) terminals += 1;
    if (event.seq <= last) duplicates += 1;
    else {
      if (event.seq !== last + 1) gaps += 1;
      last = event.seq;
    }
  }
  return { gaps, duplicates, terminals };
}

/** The same for a stored log, where order is free: holes below the highest seq, and repeated seqs. */
export function storedFindings(seqs: readonly number[], terminalCount: number): SequenceFindings {
  const distinct = new Set(seqs);
  const max = seqs.reduce((a, b) => Math.max(a, b), 0);
  return { gaps: max - distinct.size, duplicates: seqs.length - distinct.size, terminals: terminalCount };
}
