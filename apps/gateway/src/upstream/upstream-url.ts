import { GEMINI_INTERACTIONS_ENDPOINT } from '@llm-stream/adapters';
import { assertNever } from '@llm-stream/contract';
import type { Route } from '../routes/route.js';

/**
 * The streaming endpoint of a route for one upstream model, by protocol and path style (see {@link PathStyle}
 * for the documents each follows). The base URL's own path is kept as a prefix (a proxy mounted under
 * /openai, say).
 */
export function upstreamUrl(route: Route, model: string): URL {
  const style = route.pathStyle;
  const name = encodeURIComponent(model);
  switch (style.kind) {
    case 'default':
      return endpoint(route.baseUrl, defaultPath(route, name));
    case 'azure': {
      const version = `api-version=${encodeURIComponent(style.apiVersion)}`;
      return route.protocol === 'openai-responses'
        ? endpoint(route.baseUrl, `/openai/responses?${version}`)
        : endpoint(route.baseUrl, `/openai/deployments/${name}/chat/completions?${version}`);
    }
    case 'vertex':
      return endpoint(
        route.baseUrl,
        `/v1/projects/${encodeURIComponent(style.project)}/locations/${encodeURIComponent(style.location)}/publishers/google/models/${name}:streamGenerateContent?alt=sse`,
      );
    default:
      return assertNever(style, 'path style');
  }
}

function defaultPath(route: Route, model: string): string {
  switch (route.protocol) {
    case 'openai-chat':
      return '/v1/chat/completions';
    case 'openai-responses':
      return '/v1/responses';
    case 'anthropic':
      return '/v1/messages';
    case 'gemini':
      return `/v1beta/models/${model}:streamGenerateContent?alt=sse`;
    case 'gemini-interactions':
      return GEMINI_INTERACTIONS_ENDPOINT.path;
    default:
      return assertNever(route.protocol, 'protocol');
  }
}

function endpoint(baseUrl: string, path: string): URL {
  return new URL(`${baseUrl.replace(/\/+$/, '')}${path}`);
}
