import { headers as createHeaders, type Match, type MsgHdrs } from '@nats-io/nats-core';

const encoder = new TextEncoder();

/**
 * Message headers encoded once, for core publishes on the hot path. nats.js builds a header map per message
 * (a map, a validation and a trim per value, then a serialization); a core publish only needs the encoded
 * block, so this serializes the pairs in one string and hands nats.js the bytes. Reads (`get`, `has`...) go
 * to a real header map built on first use; the block is immutable (JetStream publishes, which add headers,
 * take a real map). Values must not contain CR or LF (checked: our values are ids, numbers and validated
 * names).
 */
export class EncodedHeaders implements MsgHdrs {
  private readonly bytes: Uint8Array;
  private parsed: MsgHdrs | undefined;

  constructor(private readonly pairs: Readonly<Record<string, string>>) {
    let block = 'NATS/1.0\r\n';
    for (const name in pairs) {
      const value = pairs[name] ?? '';
      if (/[\r\n]/.test(value) || /[\r\n:]/.test(name)) throw new Error(`header ${name} has a line break or colon`);
      block += `${name}: ${value}\r\n`;
    }
    this.bytes = encoder.encode(`${block}\r\n`);
  }

  /** What nats.js sends. */
  encode(): Uint8Array {
    return this.bytes;
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
    if (this.parsed === undefined) {
      const map = createHeaders();
      for (const name in this.pairs) map.set(name, this.pairs[name] ?? '');
      this.parsed = map;
    }
    return this.parsed;
  }
}
