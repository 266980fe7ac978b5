/**
 * A fingerprint of streamed text: its length in UTF-16 code units and a rolling FNV-1a hash of those code
 * units. Folding fragments one after another gives the same digest as folding their concatenation, so the
 * adapter can check a `*.done` event's full text against what it streamed without keeping a copy of it
 * (the memory target: adapters hold no streamed text). 32 bits plus the length catch any accidental
 * difference; nothing here defends against a provider forging collisions, which it has no reason to do.
 * http://www.isthe.com/chongo/tech/comp/fnv/index.html#FNV-1a
 */
export interface TextDigest {
  readonly length: number;
  readonly hash: number;
}

const FNV_OFFSET_BASIS = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

export const EMPTY_DIGEST: TextDigest = { length: 0, hash: FNV_OFFSET_BASIS };

/** The digest of `digest`'s text followed by `text`. */
export function extendDigest(digest: TextDigest, text: string): TextDigest {
  let hash = digest.hash;
  for (let index = 0; index < text.length; index++) {
    hash = Math.imul(hash ^ text.charCodeAt(index), FNV_PRIME) >>> 0;
  }
  return { length: digest.length + text.length, hash };
}

export function digestOf(text: string): TextDigest {
  return extendDigest(EMPTY_DIGEST, text);
}

export function sameDigest(a: TextDigest, b: TextDigest): boolean {
  return a.length === b.length && a.hash === b.hash;
}
