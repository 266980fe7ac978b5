import { redactText } from './redact.js';

describe('redactText', () => {
  it('leaves text without secrets byte-exact and unflagged', () => {
    const frame = 'event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"text":"Привет"},"usage":{"input_tokens":3,"max_tokens":9}}\n\n';
    expect(redactText(frame)).toEqual({ text: frame, redacted: false });
  });

  it('redacts the values of secret-bearing JSON members at any depth, keeping everything else', () => {
    const body = '{"error":{"message":"denied","request":{"headers":{"Authorization":"Bearer abc","x-api-key":"k-1\\"2"},"api_key":"s3cr3t"}},"access_token":"tok","max_tokens":5}';
    const { text, redacted } = redactText(body);
    expect(redacted).toBe(true);
    expect(JSON.parse(text)).toEqual({
      error: { message: 'denied', request: { headers: { Authorization: '[redacted]', 'x-api-key': '[redacted]' }, api_key: '[redacted]' } },
      access_token: '[redacted]',
      max_tokens: 5,
    });
  });

  it('redacts credential-shaped values anywhere: bearer tokens, OpenAI/Anthropic and Google keys', () => {
    const message = 'Incorrect API key provided: sk-proj-abcdefghijklmnop1234. Also AIzaSyA1234567890abcdefghijklmnopqrstuv and Bearer eyJhbGciOi.J9x';
    const { text } = redactText(message);
    expect(text).toBe('Incorrect API key provided: [redacted]. Also [redacted] and Bearer [redacted]');
  });

  it('redacts header lines by name', () => {
    expect(redactText('x-goog-api-key: AIzaSecret\r\nContent-Type: text/plain\r\n').text).toBe('x-goog-api-key: [redacted]\r\nContent-Type: text/plain\r\n');
  });
});
