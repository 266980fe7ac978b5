import type { ContractEvent } from '../events/contract-event.js';
import type { AssembledResult } from './assembled-result.js';
import { Assembler } from './assembler.js';

/**
 * Folds a whole event list into its final result: blocks in index order, text concatenated, tool-call
 * arguments parsed only at block.stop. For a failed or interrupted stream the blocks are the draft received
 * so far, unclosed blocks marked incomplete and without parsed arguments.
 */
export function assemble(events: readonly ContractEvent[]): AssembledResult {
  const assembler = new Assembler();
  for (const event of events) assembler.push(event);
  return assembler.result();
}
