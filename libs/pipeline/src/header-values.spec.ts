import { headers as createHeaders } from '@nats-io/nats-core';
import { headerLookup } from './nats-headers.js';
import { headerValues } from './header-values.js';

describe('headerValues', () => {
  it('answers as the header lookup over nats.js headers does: the first value of a name, exact match', () => {
    const headers = createHeaders();
    headers.append('Llm-Record', 'frame');
    headers.append('Llm-Raw-Seq', '7');
    headers.append('traceparent', '00-abc-def-01');
    headers.append('Llm-Raw-Seq', '8');
    const fast = headerValues(headers);
    const reference = headerLookup(headers);
    for (const name of ['Llm-Record', 'Llm-Raw-Seq', 'traceparent', 'llm-record', 'Missing']) expect(fast(name)).toBe(reference(name));
    expect(fast('Llm-Raw-Seq')).toBe('7');
    expect(fast('llm-record')).toBeUndefined();
  });

  it('reads a message without headers as one without any header', () => {
    expect(headerValues(undefined)('Llm-Record')).toBeUndefined();
  });
});
