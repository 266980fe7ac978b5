import { HttpStatus, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ApiKeys, type AuthenticatedRequest } from '@llm-stream/service-kit';
import { ApiError } from '../errors/api-error.js';

/** `Authorization: Bearer <key>` or `x-api-key: <key>`; an unknown key is a 401 with a JSON body. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(private readonly keys: ApiKeys) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const authenticated = this.keys.authenticate(request.headers);
    if (!authenticated.ok) throw new ApiError(HttpStatus.UNAUTHORIZED, authenticated.error.code, authenticated.error.message);
    request.principal = authenticated.value;
    return true;
  }
}
