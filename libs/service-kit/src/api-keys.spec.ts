import fc from 'fast-check';
import { ApiKeys, parseApiKeys, presentedApiKey, principalFor, sha256Hex, type ApiKeyTable } from './api-keys.js';

const ACME_KEY = 'sk-acme-0123456789';
const GLOBEX_KEY = 'sk-globex-9876543210';

function table(entries: readonly unknown[]): ApiKeyTable {
  const parsed = parseApiKeys(JSON.stringify(entries));
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

function parseError(json: string): string {
  const parsed = parseApiKeys(json);
  if (parsed.ok) throw new Error(`${json} was accepted`);
  expect(parsed.error).toMatchObject({ code: 'invalid_config', variable: 'GATEWAY_API_KEYS' });
  return parsed.error.message;
}

describe('sha256Hex', () => {
  it('is the lowercase hex SHA-256 of the UTF-8 text (known vector)', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('parseApiKeys (GATEWAY_API_KEYS)', () => {
  it('reads each entry, both flags off unless set', () => {
    const keys = table([
      { sha256: sha256Hex(ACME_KEY), tenant: 'acme' },
      { sha256: sha256Hex(GLOBEX_KEY), tenant: 'globex_2-b', reasoning: true, capture_prompts: true },
    ]);
    expect([...keys.values()]).toEqual([
      { tenant: 'acme', reasoning: false, capturePrompts: false, scopes: new Set(['streams', 'audit:read']) },
      { tenant: 'globex_2-b', reasoning: true, capturePrompts: true, scopes: new Set(['streams', 'audit:read']) },
    ]);
  });

  it('reads scopes; an entry without them keeps what every key could do before (streams, audit:read)', () => {
    const keys = table([
      { sha256: sha256Hex(ACME_KEY), tenant: 'acme', scopes: ['audit:full'] },
      { sha256: sha256Hex(GLOBEX_KEY), tenant: 'globex', scopes: ['streams', 'audit:read', 'audit:full'] },
    ]);
    expect([...keys.values()].map((principal) => [...principal.scopes])).toEqual([['audit:full'], ['streams', 'audit:read', 'audit:full']]);
  });

  it('accepts an empty list (no key is accepted then)', () => {
    expect(table([]).size).toBe(0);
  });

  it.each([
    ['not json', 'invalid configuration: GATEWAY_API_KEYS is not JSON'],
    ['{"sha256": "x"}', 'invalid configuration: GATEWAY_API_KEYS must be a JSON array of {sha256, tenant, reasoning, capture_prompts, scopes}'],
    ['[null]', 'invalid configuration: GATEWAY_API_KEYS entry 0 is not an object'],
    [`[{"sha256": "${'A'.repeat(64)}", "tenant": "acme"}]`, 'invalid configuration: GATEWAY_API_KEYS entry 0: sha256 must be 64 lowercase hex digits'],
    [`[{"sha256": "${'a'.repeat(63)}", "tenant": "acme"}]`, 'invalid configuration: GATEWAY_API_KEYS entry 0: sha256 must be 64 lowercase hex digits'],
    [`[{"sha256": "${'a'.repeat(64)}", "tenant": "ac me"}]`, 'invalid configuration: GATEWAY_API_KEYS entry 0: tenant must match [A-Za-z0-9_-]{1,64}'],
    [`[{"sha256": "${'a'.repeat(64)}"}]`, 'invalid configuration: GATEWAY_API_KEYS entry 0: tenant must match [A-Za-z0-9_-]{1,64}'],
    [`[{"sha256": "${'a'.repeat(64)}", "tenant": "acme", "reasoning": "yes"}]`, 'invalid configuration: GATEWAY_API_KEYS entry 0: reasoning must be true or false'],
    [
      `[{"sha256": "${'a'.repeat(64)}", "tenant": "acme", "capture_prompts": 1}]`,
      'invalid configuration: GATEWAY_API_KEYS entry 0: capture_prompts must be true or false',
    ],
    ...[`[]`, `["admin"]`, `"streams"`, `["streams", 1]`].map((scopes) => [
      `[{"sha256": "${'a'.repeat(64)}", "tenant": "acme", "scopes": ${scopes}}]`,
      'invalid configuration: GATEWAY_API_KEYS entry 0: scopes must be a non-empty array of streams, audit:read, audit:full',
    ]),
    [
      `[{"sha256": "${'a'.repeat(64)}", "tenant": "acme"}, {"sha256": "${'a'.repeat(64)}", "tenant": "other"}]`,
      'invalid configuration: GATEWAY_API_KEYS entry 1: the same key digest appears twice',
    ],
  ])('refuses %s', (json, message) => {
    expect(parseError(json)).toBe(message);
  });

  it('never quotes a key digest or a tenant in its messages', () => {
    const digest = 'f'.repeat(64);
    expect(parseError(`[{"sha256": "${digest}", "tenant": "bad tenant!"}]`)).not.toMatch(/f{64}|bad tenant/);
  });
});

describe('presentedApiKey', () => {
  it.each([
    [{ authorization: `Bearer ${ACME_KEY}` }, ACME_KEY],
    [{ authorization: `bearer   ${ACME_KEY}` }, ACME_KEY],
    [{ 'x-api-key': ACME_KEY }, ACME_KEY],
    [{ authorization: `Bearer ${ACME_KEY}`, 'x-api-key': GLOBEX_KEY }, ACME_KEY],
    // A malformed Authorization header does not hide a valid x-api-key.
    [{ authorization: `Basic ${ACME_KEY}`, 'x-api-key': GLOBEX_KEY }, GLOBEX_KEY],
    [{ authorization: 'Bearer two words' }, undefined],
    [{ authorization: 'Bearer ' }, undefined],
    [{ 'x-api-key': '' }, undefined],
    [{}, undefined],
  ])('%j presents %s', (headers, expected) => {
    expect(presentedApiKey(headers)).toBe(expected);
  });
});

describe('ApiKeys.authenticate', () => {
  const keys = new ApiKeys(table([{ sha256: sha256Hex(ACME_KEY), tenant: 'acme', reasoning: true }]));

  it("gives a known key's principal", () => {
    expect(keys.authenticate({ authorization: `Bearer ${ACME_KEY}` })).toEqual({
      ok: true,
      value: { tenant: 'acme', reasoning: true, capturePrompts: false, scopes: new Set(['streams', 'audit:read']) },
    });
  });

  it.each([[{ authorization: `Bearer ${GLOBEX_KEY}` }], [{ 'x-api-key': sha256Hex(ACME_KEY) }], [{}]])('refuses %j as unauthorized', (headers) => {
    expect(keys.authenticate(headers)).toEqual({
      ok: false,
      error: { code: 'unauthorized', message: 'a valid API key is required (Authorization: Bearer <key>)' },
    });
  });

  it('finds every configured key, and no other (any keys and tenants)', () => {
    const key = fc.string({ minLength: 1, maxLength: 40 }).filter((text) => /^\S+$/.test(text));
    const tenant = fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/);
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(key, tenant, fc.boolean()), { selector: ([k]) => k, maxLength: 8 }), key, (entries, stranger) => {
        const keys = new ApiKeys(table(entries.map(([k, t, reasoning]) => ({ sha256: sha256Hex(k), tenant: t, reasoning }))));
        for (const [k, t, reasoning] of entries) {
          expect(keys.authenticate({ 'x-api-key': k })).toMatchObject({ ok: true, value: { tenant: t, reasoning, capturePrompts: false } });
          expect(principalFor(keys.table, k)?.tenant).toBe(t);
        }
        const known = entries.some(([k]) => k === stranger);
        expect(keys.authenticate({ authorization: `Bearer ${stranger}` }).ok).toBe(known);
      }),
    );
  });
});

describe('ApiKeys.authorize', () => {
  const keys = new ApiKeys(
    table([
      { sha256: sha256Hex(ACME_KEY), tenant: 'acme', scopes: ['streams'] },
      { sha256: sha256Hex(GLOBEX_KEY), tenant: 'globex', scopes: ['audit:full'] },
    ]),
  );

  it('accepts a key holding one of the scopes', () => {
    expect(keys.authorize({ 'x-api-key': ACME_KEY }, ['streams']).ok).toBe(true);
    expect(keys.authorize({ 'x-api-key': GLOBEX_KEY }, ['audit:read', 'audit:full']).ok).toBe(true);
  });

  it('refuses a known key without them as insufficient_scope, an unknown key as unauthorized', () => {
    expect(keys.authorize({ 'x-api-key': ACME_KEY }, ['audit:read', 'audit:full'])).toEqual({
      ok: false,
      error: { code: 'insufficient_scope', message: 'this key lacks the scope this route needs: audit:read or audit:full' },
    });
    expect(keys.authorize({ 'x-api-key': GLOBEX_KEY }, ['streams'])).toMatchObject({ ok: false, error: { code: 'insufficient_scope' } });
    expect(keys.authorize({ 'x-api-key': 'nobody-key' }, ['streams'])).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
  });

  it('refuses every key on a route that names no scope (fails closed)', () => {
    expect(keys.authorize({ 'x-api-key': ACME_KEY }, [])).toMatchObject({ ok: false, error: { code: 'insufficient_scope' } });
  });

  it('checks against the table of the moment: replace() revokes and adds keys', () => {
    const rotating = new ApiKeys(table([{ sha256: sha256Hex(ACME_KEY), tenant: 'acme' }]));
    rotating.replace(table([{ sha256: sha256Hex(GLOBEX_KEY), tenant: 'globex' }]));
    expect(rotating.authenticate({ 'x-api-key': ACME_KEY }).ok).toBe(false);
    expect(rotating.authenticate({ 'x-api-key': GLOBEX_KEY }).ok).toBe(true);
  });
});
