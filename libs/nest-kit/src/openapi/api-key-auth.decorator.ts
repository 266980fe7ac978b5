import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiSecurity } from '@nestjs/swagger';

/** Names of the document's security schemes (ApiKeyGuard accepts either). */
export const BEARER_SCHEME = 'bearer';
export const API_KEY_HEADER_SCHEME = 'api-key';

/** Documents ApiKeyGuard on a controller: a gateway API key as a bearer token or in `x-api-key` (either one). */
export function ApiKeyAuth(): ClassDecorator & MethodDecorator {
  return applyDecorators(ApiBearerAuth(BEARER_SCHEME), ApiSecurity(API_KEY_HEADER_SCHEME));
}
