import type { IncomingHttpHeaders } from 'node:http';
import { GEMINI_INTERACTIONS_ENDPOINT } from '@llm-stream/adapters';
import { assertNever, type ProviderName } from '@llm-stream/contract';

/**
 * Which deployment of the API a path belongs to: the provider's own (`default`), Azure OpenAI
 * (`/openai/deployments/{name}/chat/completions`, `/openai/responses`, with `?api-version=` and an `api-key`
 * header) or Vertex AI (`/v1/projects/{p}/locations/{l}/publishers/google/models/{model}:streamGenerateContent`,
 * an OAuth bearer token). Each expects its own auth header.
 */
export type PathStyle = 'default' | 'azure' | 'vertex';

/**
 * The provider endpoints, matched on the path exactly as the real APIs expose them. Gemini carries the model
 * in the path (`/v1beta/models/{model}:streamGenerateContent`, Vertex AI likewise), an Azure chat deployment
 * its deployment name; the others (Gemini's Interactions API at `/v1beta/interactions` among them) carry it in
 * the body.
 */
export type ProviderRoute =
  | { readonly kind: 'provider'; readonly provider: ProviderName; readonly style: PathStyle; readonly pathModel: string | null }
  | { readonly kind: 'bad_path'; readonly provider: ProviderName; readonly message: string }
  | { readonly kind: 'none' };

// Greedy `(.+)` so a model that itself contains ':' (`scenario:sc_1`) keeps everything up to the last ':'.
const GEMINI_STREAM_PATH = /^\/v1beta\/models\/(.+):streamGenerateContent$/;
const VERTEX_STREAM_PATH = /^\/v1\/projects\/[^/]+\/locations\/[^/]+\/publishers\/google\/models\/(.+):streamGenerateContent$/;
const AZURE_CHAT_PATH = /^\/openai\/deployments\/([^/]+)\/chat\/completions$/;

export function matchProviderRoute(pathname: string): ProviderRoute {
  switch (pathname) {
    case '/v1/chat/completions':
      return { kind: 'provider', provider: 'openai-chat', style: 'default', pathModel: null };
    case '/v1/responses':
      return { kind: 'provider', provider: 'openai-responses', style: 'default', pathModel: null };
    case '/openai/responses':
      return { kind: 'provider', provider: 'openai-responses', style: 'azure', pathModel: null };
    case '/v1/messages':
      return { kind: 'provider', provider: 'anthropic', style: 'default', pathModel: null };
    case GEMINI_INTERACTIONS_ENDPOINT.path:
      return { kind: 'provider', provider: 'gemini-interactions', style: 'default', pathModel: null };
    default:
      break;
  }
  const patterns = [
    [GEMINI_STREAM_PATH, 'gemini', 'default'],
    [VERTEX_STREAM_PATH, 'gemini', 'vertex'],
    [AZURE_CHAT_PATH, 'openai-chat', 'azure'],
  ] as const;
  for (const [pattern, provider, style] of patterns) {
    const match = pattern.exec(pathname);
    if (match === null) continue;
    try {
      return { kind: 'provider', provider, style, pathModel: decodeURIComponent(match[1] ?? '') };
    } catch {
      return { kind: 'bad_path', provider, message: `Invalid model name in path: ${pathname}` };
    }
  }
  return { kind: 'none' };
}

/** The key the caller presented in the auth header of the provider's deployment, or null when it sent none. */
export function presentedApiKey(provider: ProviderName, style: PathStyle, headers: IncomingHttpHeaders, query: URLSearchParams): string | null {
  // Azure's key header (https://learn.microsoft.com/en-us/azure/ai-foundry/openai/reference#authentication);
  // Vertex AI takes an OAuth access token as a bearer (https://cloud.google.com/vertex-ai/docs/authentication).
  if (style === 'azure') return headerValue(headers['api-key']);
  if (style === 'vertex') return /^Bearer\s+(.+)$/i.exec(headers.authorization ?? '')?.[1] ?? null;
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
    case 'gemini-interactions':
      return headerValue(headers[GEMINI_INTERACTIONS_ENDPOINT.authHeader]) ?? query.get('key');
    default:
      return assertNever(provider, 'provider');
  }
}

/** The request-id header each provider sets on every response (Google's APIs set none). */
export function requestIdHeaders(provider: ProviderName, requestId: string): Record<string, string> {
  switch (provider) {
    case 'openai-chat':
    case 'openai-responses':
      return { 'x-request-id': requestId };
    case 'anthropic':
      return { 'request-id': requestId };
    case 'gemini':
    case 'gemini-interactions':
      return {};
    default:
      return assertNever(provider, 'provider');
  }
}

/** Response headers of a stream, with the content type as each provider writes it. */
export function streamHeaders(provider: ProviderName, requestId: string): Record<string, string> {
  const contentType = provider === 'gemini' || provider === 'gemini-interactions' ? 'text/event-stream' : 'text/event-stream; charset=utf-8';
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
    case 'gemini-interactions':
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
