import { generateNatsCredentials } from './nats-credentials.js';
import { parseNatsCredentials } from './parse-nats-credentials.js';

describe('parseNatsCredentials', () => {
  const generated = generateNatsCredentials(['acme', 'globex']);

  it('reads back what generateNatsCredentials made', () => {
    expect(parseNatsCredentials(JSON.stringify(generated))).toEqual({ ok: true, value: generated });
  });

  it.each([
    ['not JSON', '{', /not JSON/],
    ['no tenants', JSON.stringify({ platform: generated.platform }), /platform and tenants/],
    ['a missing identity', JSON.stringify({ ...generated, platform: { ...generated.platform, gateway: undefined } }), /platform\.gateway must be an object/],
    ['a user renamed', JSON.stringify({ ...generated, platform: { ...generated.platform, gateway: { user: 'normalizer', password: 'x'.repeat(20) } } }), /platform\.gateway\.user must be "gateway"/],
    ['a short password', JSON.stringify({ ...generated, platform: { ...generated.platform, gateway: { user: 'gateway', password: 'short' } } }), /at least 16/],
    ['a bad tenant', JSON.stringify({ ...generated, tenants: { 'a.b': generated.tenants['acme'] } }), /"a\.b" is not a valid tenant/],
    ["a tenant's user of another tenant", JSON.stringify({ ...generated, tenants: { acme: generated.tenants['globex'] } }), /tenants\.acme\.backend\.user must be "backend-acme"/],
  ])('refuses %s', (_name, text, message) => {
    const parsed = parseNatsCredentials(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.message).toMatch(message);
  });
});
