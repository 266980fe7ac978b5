import type { IncomingMessage, ServerResponse } from 'node:http';
import { err, ok, type Result } from '@llm-stream/contract';

/** Request bodies above this are refused (413): far larger than any LLM request a test sends. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

export async function readBody(request: IncomingMessage): Promise<Result<Buffer, 'too_large'>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) return err('too_large');
    chunks.push(buffer);
  }
  return ok(Buffer.concat(chunks));
}

/** The body as JSON: `empty`, the parsed value, or `invalid` with the raw text kept for the request log. */
export type ParsedBody =
  | { readonly kind: 'empty' }
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'invalid'; readonly text: string };

export function parseJsonBody(raw: Buffer): ParsedBody {
  const text = raw.toString('utf8');
  if (text.trim() === '') return { kind: 'empty' };
  try {
    return { kind: 'json', value: JSON.parse(text) as unknown };
  } catch {
    return { kind: 'invalid', text };
  }
}

/** A control-API error: `{"error": {"code", "message", ...extra}}`. */
export function sendError(
  response: ServerResponse,
  status: number,
  code: string,
  message: string,
  extra: Readonly<Record<string, string>> = {},
  headers: Readonly<Record<string, string>> = {},
): void {
  sendJson(response, status, { error: { code, message, ...extra } }, headers);
}

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): void {
  sendBody(response, status, { 'content-type': 'application/json', ...headers }, JSON.stringify(body));
}

/** A whole body with its length: an error response before any frame, as providers send it. */
export function sendBody(response: ServerResponse, status: number, headers: Readonly<Record<string, string>>, body: string): void {
  response.writeHead(status, { 'content-length': String(Buffer.byteLength(body)), ...headers });
  response.end(body);
}
