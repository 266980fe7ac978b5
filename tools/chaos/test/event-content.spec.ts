import { eventContentHash, receivedContentHash } from '../src/check/event-content.js';

describe('event content fingerprints', () => {
  const stored = { type: 'block.delta', seq: 3, stream_id: 'st_1', block: { id: 'st_1.b0', index: 0, kind: 'text' }, delta: { kind: 'text', text: 'Hel' } };

  it('an SSE data line with the stored JSON has the stored event fingerprint', () => {
    expect(receivedContentHash(JSON.stringify(stored))).toBe(eventContentHash(stored));
  });

  it('the same content with other key order and spacing has the same fingerprint', () => {
    const reordered = '{"delta": {"text": "Hel", "kind": "text"}, "stream_id": "st_1", "seq": 3, "type": "block.delta", "block": {"kind": "text", "index": 0, "id": "st_1.b0"}}';
    expect(receivedContentHash(reordered)).toBe(eventContentHash(stored));
  });

  it('other content, even one character of a nested value, has another fingerprint', () => {
    expect(receivedContentHash(JSON.stringify({ ...stored, delta: { kind: 'text', text: 'Hal' } }))).not.toBe(eventContentHash(stored));
    expect(receivedContentHash(JSON.stringify({ ...stored, seq: 4 }))).not.toBe(eventContentHash(stored));
    expect(receivedContentHash(JSON.stringify([stored]))).not.toBe(eventContentHash(stored));
  });

  it('data that is not JSON never matches a stored event', () => {
    const cut = JSON.stringify(stored).slice(0, -1);
    expect(receivedContentHash(cut)).not.toBe(eventContentHash(stored));
    expect(receivedContentHash(cut)).toMatch(/^[\w-]{43}$/);
  });
});
