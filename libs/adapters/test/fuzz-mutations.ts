import fc from 'fast-check';

/**
 * Mutations of recorded transcripts for the adapters' fuzz specs: the records of one transcript dropped,
 * shuffled, duplicated or repeated at random.
 */
export function mutatedRecords(recordLists: readonly (readonly string[])[]): fc.Arbitrary<string[]> {
  return fc.nat(recordLists.length - 1).chain((which) => {
    const texts = recordLists[which] ?? [];
    return fc.oneof(
      fc.subarray([...texts]),
      fc.shuffledSubarray([...texts], { minLength: texts.length }),
      fc.shuffledSubarray([...texts]),
      fc.array(fc.constantFrom(...texts), { maxLength: texts.length * 2 }),
      fc.array(fc.nat(texts.length - 1), { maxLength: 6 }).map((copies) => {
        const result = [...texts];
        for (const position of copies) result.splice(position, 0, texts[position] ?? '');
        return result;
      }),
    );
  });
}

/** One transcript's bytes truncated at any byte, with a few bytes flipped, cut into random chunks. */
export function damagedBodies(bodies: readonly Buffer[]): fc.Arbitrary<Buffer[]> {
  return fc
    .tuple(
      fc.nat(bodies.length - 1),
      fc.nat(),
      fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 4 }),
      fc.array(fc.nat(), { maxLength: 6 }),
    )
    .map(([which, cut, flips, cuts]) => {
      const body = Buffer.from(bodies[which] ?? Buffer.alloc(0));
      for (const [position, value] of flips) if (body.length > 0) body[position % body.length] = value;
      const truncated = body.subarray(0, cut % (body.length + 1));
      const edges = [...new Set(cuts.map((position) => position % (truncated.length + 1)))].sort((a, b) => a - b);
      return [...edges, truncated.length].map((end, i) => truncated.subarray(i === 0 ? 0 : (edges[i - 1] ?? 0), end));
    });
}

/** Random bytes alone, and the same bytes put between two records of a transcript. */
export function binaryJunk(recordLists: readonly (readonly string[])[]): fc.Arbitrary<{ alone: Buffer; between: (string | Buffer)[] }> {
  return fc.tuple(fc.uint8Array({ maxLength: 200 }), fc.nat(recordLists.length - 1), fc.nat()).map(([bytes, which, position]) => {
    const texts = recordLists[which] ?? [];
    const at = position % (texts.length + 1);
    return { alone: Buffer.from(bytes), between: [texts.slice(0, at).join(''), Buffer.from(bytes), '\n\n', texts.slice(at).join('')] };
  });
}
