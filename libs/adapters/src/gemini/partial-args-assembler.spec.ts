import { PartialArgsAssembler } from './partial-args-assembler.js';

/** Applies every entry (failing the test on a refused one) and returns the arguments text. */
function assemble(...entries: unknown[]): string {
  const args = new PartialArgsAssembler();
  for (const entry of entries) expect(args.apply(entry)).toEqual({ ok: true, value: undefined });
  const text = args.text();
  if (!text.ok) throw new Error(text.error.message);
  return text.value;
}

function refusal(...entries: unknown[]): string | undefined {
  const args = new PartialArgsAssembler();
  for (const entry of entries) {
    const applied = args.apply(entry);
    if (!applied.ok) return applied.error.message;
  }
  return undefined;
}

describe('PartialArgsAssembler', () => {
  it('joins the pieces of a string while they say willContinue, the next piece for the path ending it', () => {
    expect(
      assemble(
        { jsonPath: '$.path', stringValue: 'C:\\Users\\', willContinue: true },
        { jsonPath: '$.path', stringValue: 'Анна\\notes.txt', willContinue: true },
        { jsonPath: '$.path', stringValue: '' },
        { jsonPath: '$.overwrite', boolValue: true },
      ),
    ).toBe(JSON.stringify({ path: 'C:\\Users\\Анна\\notes.txt', overwrite: true }));
  });

  it('sets numbers, booleans and nulls at nested paths, creating objects and arrays in order', () => {
    expect(
      assemble(
        { jsonPath: '$.recipe.ingredients[0].amount', stringValue: '16 oz', willContinue: true },
        { jsonPath: '$.recipe.ingredients[0].amount', stringValue: '' },
        { jsonPath: '$.recipe.ingredients[0].name', stringValue: 'Noodles' },
        { jsonPath: '$.recipe.ingredients[1].amount', numberValue: 2 },
        { jsonPath: '$.recipe.servings', numberValue: 6.5 },
        { jsonPath: '$.recipe.vegan', boolValue: false },
        { jsonPath: '$.recipe.notes', nullValue: null },
        { jsonPath: '$.recipe.tags[0]', nullValue: 'NULL_VALUE' },
      ),
    ).toBe(
      JSON.stringify({
        recipe: { ingredients: [{ amount: '16 oz', name: 'Noodles' }, { amount: 2 }], servings: 6.5, vegan: false, notes: null, tags: [null] },
      }),
    );
  });

  it('replaces a string that was finished instead of appending to it', () => {
    expect(assemble({ jsonPath: '$.a', stringValue: 'old' }, { jsonPath: '$.a', stringValue: 'new' })).toBe('{"a":"new"}');
  });

  it('keeps a string open across an entry without a value, and closes it when another path is written', () => {
    expect(
      assemble(
        { jsonPath: '$.a', stringValue: 'x', willContinue: true },
        { jsonPath: '$.a', willContinue: true },
        { jsonPath: '$.a', stringValue: 'y', willContinue: true },
        { jsonPath: '$.b', numberValue: 1 },
        { jsonPath: '$.a', stringValue: 'z' },
      ),
    ).toBe('{"a":"z","b":1}');
  });

  it('is an empty object before any entry (a zero-parameter call)', () => {
    expect(assemble()).toBe('{}');
  });

  it('treats __proto__ and constructor as ordinary member names', () => {
    expect(assemble({ jsonPath: '$.__proto__.polluted', boolValue: true }, { jsonPath: '$.constructor', stringValue: 'x' })).toBe(
      '{"__proto__":{"polluted":true},"constructor":"x"}',
    );
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it.each([
    [[{ stringValue: 'x' }], 'no jsonPath'],
    [['not an entry'], 'not an object'],
    [[{ jsonPath: '$.a', stringValue: 3 }], 'stringValue'],
    [[{ jsonPath: '$.a', numberValue: '3' }], 'numberValue'],
    [[{ jsonPath: '$.a', numberValue: Infinity }], 'numberValue'],
    [[{ jsonPath: '$.a', boolValue: 'yes' }], 'boolValue'],
    [[{ jsonPath: '$', numberValue: 1 }], 'root'],
    [[{ jsonPath: '$[0]', numberValue: 1 }], 'not an array'],
    [[{ jsonPath: '$.a[2]', numberValue: 1 }], 'skips elements'],
    [[{ jsonPath: '$.a[999999999]', numberValue: 1 }], 'skips elements'],
    [[{ jsonPath: '$.a', numberValue: 1 }, { jsonPath: '$.a.b', numberValue: 1 }], 'not an object'],
    [[{ jsonPath: '$.a[0]', numberValue: 1 }, { jsonPath: '$.a.b', numberValue: 1 }], 'not an object'],
    [[{ jsonPath: '$.a.b', numberValue: 1 }, { jsonPath: '$.a[0]', numberValue: 1 }], 'not an array'],
    [[{ jsonPath: '$..a', numberValue: 1 }], 'jsonPath'],
  ])('refuses %j (%s)', (entries, why) => {
    expect(refusal(...entries)).toContain(why);
  });
});
