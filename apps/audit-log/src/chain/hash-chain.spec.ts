import { CHAIN_GENESIS, contentHash, linkHash, verifyChain, type ChainRow } from './hash-chain.js';

function chain(bodies: readonly object[]): { rows: ChainRow[]; head: { seq: number; hash: string } } {
  let previous = CHAIN_GENESIS;
  const rows = bodies.map((body, index): ChainRow => {
    const content = contentHash(body);
    const link = linkHash(previous, content);
    const row = { seq: index + 1, body: JSON.stringify(body), content_hash: content, prev_hash: previous, chain_hash: link };
    previous = link;
    return row;
  });
  return { rows, head: { seq: rows.length, hash: previous } };
}

const events = [{ type: 'stream.start', seq: 1 }, { type: 'block.start', seq: 2 }, { type: 'block.delta', seq: 3 }, { type: 'stream.done', seq: 4 }];

describe('hash chain', () => {
  it('is SHA-256 over the canonical content, then over prev + content (documented vectors)', () => {
    // sha256('{"a":2,"b":1}'), and sha256('000...0' + that): key order does not matter.
    const content = 'd3626ac30a87e6f7a6428233b3c68299976865fa5508e4267c5415c76af7a772';
    expect(contentHash({ b: 1, a: 2 })).toBe(content);
    expect(linkHash(CHAIN_GENESIS, content)).toBe('3b256f886189e4dbd7fa2839006b875014ded711d20fd08ba59ffe745fea0b6f');
  });

  it('verifies an intact chain and reports its head', () => {
    const { rows, head } = chain(events);
    expect(verifyChain(rows, head)).toEqual({ ok: true, verified: 4, head: head.hash, first_broken: null });
    expect(verifyChain([], { seq: 0, hash: CHAIN_GENESIS })).toMatchObject({ ok: true, verified: 0 });
  });

  it.each([
    ['an altered body', (rows: ChainRow[]) => (rows[1] = { ...rows[1]!, body: '{"type":"block.start","seq":2,"x":1}' }), 2, 'content_hash_mismatch'],
    ['a body that is not JSON', (rows: ChainRow[]) => (rows[2] = { ...rows[2]!, body: '{' }), 3, 'unreadable_body'],
    ['a recomputed content hash', (rows: ChainRow[]) => (rows[1] = { ...rows[1]!, body: '{"seq":2}', content_hash: contentHash({ seq: 2 }) }), 2, 'chain_hash_mismatch'],
    ['a removed event', (rows: ChainRow[]) => rows.splice(1, 1), 2, 'missing_event'],
    ['an unlinked event', (rows: ChainRow[]) => (rows[3] = { ...rows[3]!, prev_hash: null, chain_hash: null }), 4, 'unlinked_event'],
    ['a broken back-link', (rows: ChainRow[]) => (rows[2] = { ...rows[2]!, prev_hash: CHAIN_GENESIS }), 3, 'prev_hash_mismatch'],
    ['a truncated tail', (rows: ChainRow[]) => rows.pop(), 4, 'missing_event'],
  ] as const)('reports %s at the first broken link', (_name, tamper, seq, reason) => {
    const { rows, head } = chain(events);
    tamper(rows);
    expect(verifyChain(rows, head)).toMatchObject({ ok: false, first_broken: { seq, reason } });
  });

  it('reports a rewritten tail against the stored head', () => {
    const { head } = chain(events);
    const rewritten = chain([...events.slice(0, 3), { type: 'stream.error', seq: 4 }]);
    expect(verifyChain(rewritten.rows, head)).toMatchObject({ ok: false, first_broken: { seq: 4, reason: 'head_mismatch' } });
  });
});
