import type { IncomingHttpHeaders } from 'node:http';
import { assertNever, type ProviderName } from '@llm-stream/contract';

/**
 * The four provider endpoints, matched on the path exactly as the real APIs expose them. Gemini carries the
 * model in the path (`/v1beta/models/{model}:streamGenerateContent`); the others carry it in the body.
 */
export type ProviderRoute =
  | { readonly kind: 'provider'; readonly provider: ProviderName; readonly pathModel: string | null }
  | { readonly kind: 'bad_path'; readonly provider: ProviderName; readonly message: string }
  | { readonly kind: 'none' };

// Greedy `(.+)` so a model that itself contains ':' (`scenario:sc_1`) keeps everything up to the last ':'.
const GEMINI_STREAM_PATH = /^\/v1beta\/models\/(.+):streamGenerateContent$/;

export function matchProviderRoute(pathname: string): ProviderRoute {
  switch (pathname) {
    case '/v1/chat/completions':
      return { kind: 'provider', provider: 'openai-chat', pathModel: null };
    case '/v1/responses':
      return { kind: 'provider', provider: 'openai-responses', pathModel: null };
    case '/v1/messages':
      return { kind: 'provider', provider: 'anthropic', pathModel: null };
    default:
      break;
  }
  const gemini = GEMINI_STREAM_PATH.exec(pathname);
  if (gemini === null) return { kind: 'none' };
  try {
    return { kind: 'provider', provider: 'gemini', pathModel: decodeURIComponent(gemini[1] ?? '') };
  } catch {
    return { kind: 'bad_path', provider: 'gemini', message: `Invalid model name in path: ${pathname}` };
  }
}

/** The key the caller presented in the provider's own auth header, or null when it sent none. */
export function presentedApiKey(provider: ProviderName, headers: IncomingHttpHeaders, query: URLSearchParams): string | null {
  switch (provider) {
    case 'openai-chat':
    case 'openai-responses': {
      const match = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? '');
      return match?.[1] ?? null;
    }
    case 'anthropic':
      return headerValue(headers['x-api-key']);
    case 'gemini':
      // Google also accepts `?key=`; SDKs use the header.
      return headerValue(headers['x-goog-api-key']) ?? query.get('key');
    default:
      return assertNever(provider, 'provider');
  }
}

/** The request-id header each provider sets on every response (Gemini sets none). */
export function requestIdHeaders(provider: ProviderName, requestId: string): Record<string, string> {
  switch (provider) {
    case 'openai-chat':
    case 'openai-responses':
      return { 'x-request-id': requestId };
    case 'anthropic':
      return { 'request-id': requestId };
    case 'gemini':
      return {};
    default:
      return assertNever(provider, 'provider');
  }
}

/** Response headers of a stream, with the content type as each provider writes it. */
export function streamHeaders(provider: ProviderName, requestId: string): Record<string, string> {
  const contentType = provider === 'gemini' ? 'text/event-stream' : 'text/event-stream; charset=utf-8';
  return { 'content-type': contentType, 'cache-control': 'no-cache', ...requestIdHeaders(provider, requestId) };
}

const ANTHROPIC_PING = Buffer.from('event: ping\ndata: {"type": "ping"}\n\n');
const COMMENT_PING = Buffer.from(': ping\n\n');
// Gemini frames every record with CRLF; a keep-alive in the same framing keeps the stream uniform.
const COMMENT_PING_CRLF = Buffer.from(': ping\r\n\r\n');

/** The keep-alive a stalled stream repeats: Anthropic's own `ping` event, an SSE comment elsewhere. */
export function keepAliveBytes(provider: ProviderName): Buffer {
  switch (provider) {
    case 'anthropic':
      return ANTHROPIC_PING;
    case 'openai-chat':
    case 'openai-responses':
      return COMMENT_PING;
    case 'gemini':
      return COMMENT_PING_CRLF;
    default:
      return assertNever(provider, 'provider');
  }
}

function headerValue(value: string | string[] | undefined): string | null {
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined || first === '' ? null : first;
}
