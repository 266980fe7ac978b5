import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { ApiKeyPrincipal, AuthenticatedRequest } from '@llm-stream/service-kit';

/** The authenticated caller (set by ApiKeyGuard). */
export const Principal = createParamDecorator((_data: unknown, context: ExecutionContext): ApiKeyPrincipal | undefined => {
  return context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
});
