import type { IncomingMessage, ServerResponse } from 'node:http';
import { CONTROL_ROUTES, handleControl, type ControlDeps } from './control-api.js';
import { readBody, sendBody, sendError } from './http-io.js';
import { handleProviderCall, type ProviderDeps } from './provider-handler.js';
import { providerError } from './provider-errors.js';
import { matchProviderRoute } from './providers.js';

export type RouterDeps = ControlDeps & ProviderDeps;

/** The server's request listener: provider endpoints, the `/_replay/` control API, 404 for the rest. */
export function createRouter(deps: RouterDeps): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    route(request, response, deps).catch((error: unknown) => {
      // A bug, not a scenario: say so once on stderr (never the body) and fail the request visibly.
      process.stderr.write(`${JSON.stringify({ level: 'error', msg: 'request failed', path: request.url, error: String(error) })}\n`);
      if (!response.headersSent) sendError(response, 500, 'internal_error', 'the replay provider failed; see its stderr');
      else response.destroy();
    });
  };
}

async function route(request: IncomingMessage, response: ServerResponse, deps: RouterDeps): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://replay.invalid');
  const method = request.method ?? 'GET';
  const provider = matchProviderRoute(url.pathname);
  const controlMethods = CONTROL_ROUTES[url.pathname];
  const allowed = provider.kind === 'none' ? controlMethods : ['POST'];
  if (allowed === undefined) {
    sendError(response, 404, 'not_found', `no route for ${method} ${url.pathname}`);
    return;
  }
  if (!allowed.includes(method)) {
    sendError(response, 405, 'method_not_allowed', `${url.pathname} accepts ${allowed.join(', ')}`, {}, { allow: allowed.join(', ') });
    return;
  }
  const body = await readBody(request);
  if (!body.ok) {
    sendError(response, 413, 'body_too_large', 'the request body is too large');
    return;
  }
  switch (provider.kind) {
    case 'none':
      handleControl(method, url.pathname, url.searchParams, body.value, response, deps);
      return;
    case 'bad_path': {
      const error = providerError(provider.provider, 'invalid_request', provider.message, '');
      sendBody(response, error.status, { 'content-type': error.contentType }, error.body);
      return;
    }
    case 'provider':
      await handleProviderCall(
        request,
        response,
        { provider: provider.provider, style: provider.style, pathModel: provider.pathModel, pathname: url.pathname, query: url.searchParams, body: body.value },
        deps,
      );
      return;
  }
}
