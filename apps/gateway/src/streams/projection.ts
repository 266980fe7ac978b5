import type { ApiKeyPrincipal } from '@llm-stream/service-kit';
import type { StoredEvent } from './event-feed.js';

/**
 * The HTTP client's safe projection of the full truth: reasoning blocks (visibility internal) are withheld
 * unless the key's policy allows them. seq then skips numbers but still strictly increases.
 */
export function isVisibleTo(event: Pick<StoredEvent, 'blockKind'>, principal: ApiKeyPrincipal): boolean {
  return principal.reasoning || event.blockKind !== 'reasoning';
}
