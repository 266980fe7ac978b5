import type { Match, MsgHdrs } from '@nats-io/nats-core';
import { headersOfBlock } from './header-block.js';

const encoder = new TextEncoder();

/**
 * A header block serialized once, for core publishes on the hot path. nats.js builds a header map per message
 * (a map, a validation and a trim per value, then a serialization); a core publish only needs the encoded
 * bytes, so this hands nats.js the block the message encoders wrote. Reads (`get`, `has`...) go to a real
 * header map built on first use; the block is immutable (JetStream publishes, which add headers, take a real
 * map: `headersOfBlock`).
 */
export class EncodedHeaders implements MsgHdrs {
  private parsed: MsgHdrs | undefined;

  constructor(private readonly block: string) {}

  /** What nats.js sends. */
  encode(): Uint8Array {
    return encoder.encode(this.block);
  }

  get hasError(): boolean {
    return this.map().hasError;
  }

  get status(): string {
    return this.map().status;
  }

  get code(): number {
    return this.map().code;
  }

  get description(): string {
    return this.map().description;
  }

  get(k: string, match?: Match): string {
    return this.map().get(k, match);
  }

  set(k: string): void {
    throw new Error(`EncodedHeaders are immutable (set ${k})`);
  }

  append(k: string): void {
    throw new Error(`EncodedHeaders are immutable (append ${k})`);
  }

  has(k: string, match?: Match): boolean {
    return this.map().has(k, match);
  }

  keys(): string[] {
    return this.map().keys();
  }

  values(k: string, match?: Match): string[] {
    return this.map().values(k, match);
  }

  delete(k: string): void {
    throw new Error(`EncodedHeaders are immutable (delete ${k})`);
  }

  last(k: string, match?: Match): string {
    return this.map().last(k, match);
  }

  [Symbol.iterator](): Iterator<[string, string[]]> {
    return this.map()[Symbol.iterator]();
  }

  private map(): MsgHdrs {
    this.parsed ??= headersOfBlock(this.block);
    return this.parsed;
  }
}
