import { HttpStatus, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../errors/api-error.js';
import { principalFor, type ApiKeyPrincipal, type ApiKeyTable } from './api-keys.js';

/** The request after authentication. */
export type AuthenticatedRequest = IncomingMessage & { principal?: ApiKeyPrincipal };

/** The table of accepted key digests, provided at start from GATEWAY_API_KEYS. */
export class ApiKeys {
  constructor(readonly table: ApiKeyTable) {}
}

/** `Authorization: Bearer <key>` or `x-api-key: <key>`; an unknown key is a 401 with a JSON body. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(private readonly keys: ApiKeys) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const key = presentedKey(request);
    const principal = key === undefined ? undefined : principalFor(this.keys.table, key);
    if (!principal) throw new ApiError(HttpStatus.UNAUTHORIZED, 'unauthorized', 'a valid API key is required (Authorization: Bearer <key>)');
    request.principal = principal;
    return true;
  }
}

function presentedKey(request: IncomingMessage): string | undefined {
  const authorization = request.headers.authorization;
  if (typeof authorization === 'string' && /^Bearer\s+\S+$/i.test(authorization)) return authorization.replace(/^Bearer\s+/i, '');
  const apiKey = request.headers['x-api-key'];
  return typeof apiKey === 'string' && apiKey !== '' ? apiKey : undefined;
}
