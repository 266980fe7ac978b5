import { HttpStatus, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiKeys, HttpApiError, type ApiKeyScope, type AuthenticatedRequest } from '@llm-stream/service-kit';
import { RequireScopes } from './require-scopes.decorator.js';

/**
 * `Authorization: Bearer <key>` or `x-api-key: <key>`; an unknown key is a 401, a known key without one of the
 * route's scopes ({@link RequireScopes}) a 403 `insufficient_scope`, both with a JSON body. A route without
 * RequireScopes is refused to every key: a forgotten scope fails closed.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly keys: ApiKeys,
    private readonly reflector: Reflector,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    // Undefined on a route without RequireScopes, whatever the decorator's type says.
    const scopes = this.reflector.getAllAndOverride(RequireScopes, [context.getHandler(), context.getClass()]) as readonly ApiKeyScope[] | undefined;
    const authorized = this.keys.authorize(request.headers, scopes ?? []);
    if (!authorized.ok) {
      const status = authorized.error.code === 'unauthorized' ? HttpStatus.UNAUTHORIZED : HttpStatus.FORBIDDEN;
      throw new HttpApiError(status, authorized.error.code, authorized.error.message);
    }
    request.principal = authorized.value;
    return true;
  }
}
