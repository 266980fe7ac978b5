import fc from 'fast-check';
import { canonicalJson } from './canonical-json.js';

describe('canonicalJson (RFC 8785)', () => {
  it('sorts members by name at every depth and drops whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: null, y: 'é' }], c: true } })).toBe('{"a":{"c":true,"d":[3,{"y":"é","z":null}]},"b":1}');
  });

  it('sorts by UTF-16 code units, as RFC 8785 requires', () => {
    // U+20AC (€) sorts before U+1F600 (😀, a surrogate pair starting 0xD83D) by code unit, after it by code point.
    expect(canonicalJson({ '😀': 1, '€': 2, '\r': 3, '1': 4 })).toBe('{"\\r":3,"1":4,"€":2,"😀":1}');
  });

  it('escapes strings and writes numbers as JSON.stringify does', () => {
    expect(canonicalJson(['a"\\\n\u0001', 1e21, 0.1, -0, 100])).toBe('["a\\"\\\\\\n\\u0001",1e+21,0.1,0,100]');
  });

  it('gives the same text for the same value whatever its key order or spacing', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const reordered = JSON.parse(JSON.stringify(value, null, 2)) as unknown;
        const shuffled = reverseKeys(reordered);
        expect(canonicalJson(shuffled)).toBe(canonicalJson(value));
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  it('refuses values without a JSON form', () => {
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
  });
});

function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).reverse().map(([key, item]) => [key, reverseKeys(item)]));
}
