import { Reflector } from '@nestjs/core';
import type { ApiKeyScope } from '@llm-stream/service-kit';

/** The scopes a controller or route accepts (any one of them); ApiKeyGuard enforces it. */
export const RequireScopes = Reflector.createDecorator<readonly ApiKeyScope[]>();
