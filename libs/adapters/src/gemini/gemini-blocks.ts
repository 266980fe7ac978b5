import type { MachineInput, ProviderMetadata, WarnInput } from '@llm-stream/contract';
import { optional } from '../shared/optional.js';
import type { PartialArgsAssembler } from './partial-args-assembler.js';

/** The block the adapter last opened and has not stopped yet; Gemini never says when a block ends. */
export interface OpenBlock {
  readonly key: string;
  /** Its public index: blocks are opened in order and none is skipped. */
  readonly index: number;
  readonly kind: 'text' | 'reasoning' | 'tool_call';
  /** The opaque `thoughtSignature` of its part, carried on its block.stop. */
  signature: string | undefined;
  /** A Vertex streamed function call still receiving `partialArgs` (tool_call blocks only). */
  readonly streamed?: PartialArgsAssembler;
}

/**
 * The adapter's block bookkeeping: at most one block is open at a time (Gemini parts are sequential), and
 * thought signatures are placed on the block they belong to, or on the response.
 * https://ai.google.dev/gemini-api/docs/thought-signatures
 */
export class GeminiBlocks {
  private count = 0;
  private current: OpenBlock | undefined;
  private responseSignature: string | undefined;

  get open(): OpenBlock | undefined {
    return this.current;
  }

  /** Opens the next block (keys `b0`, `b1`... in order, so the key order is the public index order). */
  start(kind: OpenBlock['kind'], streamed?: PartialArgsAssembler): OpenBlock {
    const index = this.count;
    this.count += 1;
    this.current = { key: `b${index}`, index, kind, signature: undefined, ...optional('streamed', streamed) };
    return this.current;
  }

  /** block.stop of the open block, carrying its signature; nothing when no block is open. */
  close(): readonly MachineInput[] {
    const block = this.current;
    this.current = undefined;
    if (!block) return [];
    return [{ type: 'block.close', key: block.key, ...optional('provider_metadata', signatureMetadata(block.signature)) }];
  }

  /**
   * A signature on a part that adds no content (the final empty text part, a bare `thoughtSignature`, a
   * streamed call's later part): the open block's when it has none (or the same one), else the response's.
   * A second, different response-level signature has nowhere to go and is reported, not dropped silently.
   */
  placeSignature(signature: string | undefined): readonly WarnInput[] {
    if (signature === undefined) return [];
    const open = this.current;
    if (open && (open.signature === undefined || open.signature === signature)) {
      open.signature = signature;
      return [];
    }
    if (this.responseSignature === undefined || this.responseSignature === signature) {
      this.responseSignature = signature;
      return [];
    }
    return [{ type: 'warn', warning: { code: 'ignored_input', message: 'gemini: a second response-level thoughtSignature was dropped' } }];
  }

  /** stream.done's provider_metadata: the response-level signature, if any. */
  responseMetadata(): ProviderMetadata | undefined {
    return signatureMetadata(this.responseSignature);
  }
}

function signatureMetadata(signature: string | undefined): ProviderMetadata | undefined {
  return signature === undefined ? undefined : { gemini: { thought_signature: signature } };
}
