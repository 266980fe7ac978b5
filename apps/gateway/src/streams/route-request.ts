import { HttpStatus } from '@nestjs/common';
import { assertNever } from '@llm-stream/contract';
import { ApiError } from '../errors/api-error.js';
import type { Route } from '../routes/route.js';
import type { RouteRefusal, RouteTable } from '../routes/route-table.js';
import { planUpstream, requestedModel, type UpstreamPlan } from '../upstream/upstream-plan.js';

export interface StreamRequest {
  /** `{route}` of `POST /v1/streams/{route}`. */
  readonly routeName: string;
  readonly body: unknown;
  readonly queryModel: string | undefined;
  readonly tenant: string;
}

/**
 * Where a client's request goes and what is sent there, or the HTTP error that refuses it before anything is
 * sent: 404 for an unknown route, 400 for a body without a usable model (or an alias of another protocol),
 * 403 `route_not_allowed` for a route or alias outside the tenant's allow-list.
 */
export function routeRequest(routes: RouteTable, request: StreamRequest, anthropicVersion: string): { readonly route: Route; readonly plan: UpstreamPlan } {
  const protocol = routes.protocolOf(request.routeName);
  if (protocol === undefined) {
    throw new ApiError(HttpStatus.NOT_FOUND, 'unknown_provider', `unknown route ${JSON.stringify(request.routeName)} (${routes.names().join(', ')})`);
  }
  const { body } = request;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError(HttpStatus.BAD_REQUEST, 'invalid_request', "the body must be a JSON object: the provider's own request");
  }
  const fields = body as Record<string, unknown>;
  const model = requestedModel(protocol, fields, request.queryModel);
  if (!model.ok) throw new ApiError(HttpStatus.BAD_REQUEST, model.error.code, model.error.message);
  const resolved = routes.resolve(request.routeName, model.value, request.tenant);
  if (!resolved.ok) throw routeRefusal(resolved.error);
  const plan = planUpstream(resolved.value, fields, model.value, { anthropicVersion });
  return { route: resolved.value.route, plan };
}

function routeRefusal(refusal: RouteRefusal): ApiError {
  switch (refusal.code) {
    case 'unknown_route':
      return new ApiError(HttpStatus.NOT_FOUND, 'unknown_provider', refusal.message);
    case 'route_not_allowed':
      return new ApiError(HttpStatus.FORBIDDEN, 'route_not_allowed', refusal.message);
    case 'alias_mismatch':
      return new ApiError(HttpStatus.BAD_REQUEST, 'invalid_request', refusal.message);
    default:
      return assertNever(refusal, 'route refusal');
  }
}
