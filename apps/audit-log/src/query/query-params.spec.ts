import { decodeCursor, encodeCursor, parseListQuery, parseStatsQuery } from './query-params.js';

describe('query parameters', () => {
  it('reads every listing filter, the page size and the cursor', () => {
    const cursor = encodeCursor({ startedAt: 1_700_000_000_000, streamId: 'st_1' });
    expect(
      parseListQuery({
        status: 'failed',
        error_category: 'rate_limited',
        provider: 'gemini',
        model: 'gemini-2.5-pro',
        route: 'vertex-eu',
        trace_id: 'a'.repeat(32),
        from: '2026-01-01T00:00:00Z',
        to: '1767312000000',
        limit: '20',
        cursor,
      }),
    ).toEqual({
      ok: true,
      value: {
        filter: {
          status: 'failed',
          errorCategory: 'rate_limited',
          provider: 'gemini',
          model: 'gemini-2.5-pro',
          route: 'vertex-eu',
          traceId: 'a'.repeat(32),
          from: 1_767_225_600_000,
          to: 1_767_312_000_000,
        },
        page: { limit: 20, after: { startedAt: 1_700_000_000_000, streamId: 'st_1' } },
      },
    });
    expect(parseListQuery({})).toEqual({ ok: true, value: { filter: {}, page: { limit: 50 } } });
  });

  it.each([
    [{ status: 'done' }, 'status'],
    [{ error_category: 'oops' }, 'error_category'],
    [{ provider: 'openai' }, 'provider'],
    [{ limit: '0' }, 'limit'],
    [{ limit: '501' }, 'limit'],
    [{ from: 'yesterday' }, 'from'],
    [{ from: '20', to: '10' }, 'from must not be after to'],
    [{ cursor: 'bm90IGEgY3Vyc29y' }, 'cursor'],
    [{ trace_id: 'XYZ' }, 'trace_id'],
    [{ route: 'Vertex EU' }, 'route must be a route name'],
    [{ statu: 'failed' }, 'unknown query parameter "statu"'],
  ])('refuses %j', (query, mentions) => {
    const parsed = parseListQuery(query);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.message).toContain(mentions);
  });

  it('reads the stats range and refuses listing filters there', () => {
    expect(parseStatsQuery({ from: '5', to: '9' })).toEqual({ ok: true, value: { from: 5, to: 9 } });
    expect(parseStatsQuery({ status: 'failed' }).ok).toBe(false);
  });

  it('round-trips cursors and refuses forged ones', () => {
    expect(decodeCursor(encodeCursor({ startedAt: 7, streamId: 'st_x' }))).toEqual({ startedAt: 7, streamId: 'st_x' });
    expect(decodeCursor(Buffer.from('[1.5,"x"]').toString('base64url'))).toBeUndefined();
    expect(decodeCursor('%%%')).toBeUndefined();
  });
});
