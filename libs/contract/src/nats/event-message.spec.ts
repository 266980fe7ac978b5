import { decodeEventMessage } from './event-message.js';

describe('decodeEventMessage without validation', () => {
  it.each(['null', '3', '"x"', '{}', '[]'])('refuses %s as a typed error instead of throwing', (data) => {
    const result = decodeEventMessage('llm.events.acme.st_1', data, { validate: false });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('schema_violation');
  });
});
