/**
 * JSON as Google's API front end writes it in streamed responses: `"key": value` (a space after the colon)
 * and `,` with no space between members and items, e.g. `{"candidates": [{"content": {"parts": [...]`.
 * Strings and numbers are written as `JSON.stringify` writes them.
 */
export function googleJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => googleJson(item)).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const members = Object.entries(value).map(([key, member]) => `${JSON.stringify(key)}: ${googleJson(member)}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}

/** One Gemini SSE record (`alt=sse`), framed with CRLF as Gemini frames it. */
export function geminiRecord(payload: unknown): Buffer {
  return Buffer.from(`data: ${googleJson(payload)}\r\n\r\n`);
}
