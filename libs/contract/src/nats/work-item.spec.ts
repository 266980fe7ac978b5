import { decodeWorkItem, encodeWorkItem, type WorkItem } from './work-item.js';

const item: WorkItem = { stream_id: 'st_01', tenant: 'acme', provider: 'gemini', model: 'gemini-2.5-flash', gateway_id: 'gw-1' };

describe('work item', () => {
  it('round-trips', () => {
    expect(decodeWorkItem(encodeWorkItem(item))).toEqual({ ok: true, value: item });
  });

  it.each([
    ['not JSON', '{', 'not JSON'],
    ['not an object', '3', 'not an object'],
    ['a stream id that is not a subject token', JSON.stringify({ ...item, stream_id: 'st.1' }), 'stream_id'],
    ['a tenant that is not a subject token', JSON.stringify({ ...item, tenant: 'a b' }), 'tenant'],
    ['an unknown provider', JSON.stringify({ ...item, provider: 'cohere' }), 'provider'],
    ['an empty model', JSON.stringify({ ...item, model: '' }), 'model'],
    ['no gateway', JSON.stringify({ ...item, gateway_id: undefined }), 'gateway_id'],
  ])('rejects %s', (_case, data, field) => {
    const result = decodeWorkItem(data);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('invalid_work_item');
      expect(result.error.message).toContain(field);
    }
  });
});
