import type { ContractEvent } from '@llm-stream/contract';
import type { ApiKeyPrincipal } from '../auth/api-keys.js';

/**
 * The HTTP client's safe projection of the full truth: reasoning blocks (visibility internal) are withheld
 * unless the key's policy allows them. seq then skips numbers but still strictly increases.
 */
export function isVisibleTo(event: ContractEvent, principal: ApiKeyPrincipal): boolean {
  if (principal.reasoning) return true;
  switch (event.type) {
    case 'block.start':
    case 'block.delta':
    case 'block.stop':
      return event.block.kind !== 'reasoning';
    case 'stream.start':
    case 'stream.done':
    case 'stream.error':
    case 'stream.heartbeat':
    case 'stream.warning':
      return true;
  }
}
