import { MAX_JSON_PATH_DEPTH, parseJsonPath } from './parse-json-path.js';

describe('parseJsonPath', () => {
  it.each([
    ['$.path', ['path']],
    ['$.recipe.ingredients[0].amount', ['recipe', 'ingredients', 0, 'amount']],
    ['$.foo.bar[0].data', ['foo', 'bar', 0, 'data']],
    ['$.matrix[1][12]', ['matrix', 1, 12]],
    ["$['first name']", ['first name']],
    ['$["a.b"][3]', ['a.b', 3]],
    ["$['it\\'s'].x", ["it's", 'x']],
    ['$["tab\\there\\u00e9"]', ['tab\there\u00e9']],
    ['$.имя', ['имя']],
    ['$', []],
  ])('reads %s', (path, segments) => {
    expect(parseJsonPath(path)).toEqual({ ok: true, value: segments });
  });

  it.each([
    'path',
    '$..a',
    '$.a.',
    '$.*',
    '$[*]',
    '$.a[-1]',
    '$.a[01]',
    '$.a[1:2]',
    '$.a[?@.b]',
    "$['open",
    "$['x'y]",
    '$["bad\\q"]',
    '$["\\u12"]',
    '$ .a',
    '$.a[1',
  ])('refuses %s', (path) => {
    expect(parseJsonPath(path)).toMatchObject({ ok: false, error: { code: 'invalid_json_path' } });
  });

  it(`refuses paths deeper than ${MAX_JSON_PATH_DEPTH} levels`, () => {
    expect(parseJsonPath(`$${'.a'.repeat(MAX_JSON_PATH_DEPTH)}`).ok).toBe(true);
    expect(parseJsonPath(`$${'.a'.repeat(MAX_JSON_PATH_DEPTH + 1)}`).ok).toBe(false);
  });
});
