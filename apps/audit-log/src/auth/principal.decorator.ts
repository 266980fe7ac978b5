import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { ApiKeyPrincipal } from './api-keys.js';
import type { AuthenticatedRequest } from './api-key.guard.js';

/** The authenticated caller (set by ApiKeyGuard). */
export const Principal = createParamDecorator((_data: unknown, context: ExecutionContext): ApiKeyPrincipal | undefined => {
  return context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
});
