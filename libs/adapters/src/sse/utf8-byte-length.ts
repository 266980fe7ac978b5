/**
 * UTF-8 length of `text[start, end)` without encoding it. Each UTF-16 surrogate code unit counts 2 bytes, so
 * a well-formed pair counts 4 (its UTF-8 length) and the count is additive over any split of the text, even
 * one between the two halves of a pair (string chunks can split there; decoded bytes never do). A lone
 * surrogate, which only string input can carry, therefore counts 2 rather than the 3 of its U+FFFD encoding.
 */
export function utf8ByteLength(text: string, start = 0, end = text.length): number {
  let bytes = end - start;
  for (let index = start; index < end; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0x80) bytes += code < 0x800 || (code >= 0xd800 && code <= 0xdfff) ? 1 : 2;
  }
  return bytes;
}
