import type { GatewayErrorCode } from './gateway-error-code.js';

/**
 * The gateway answered with an error status and its JSON body `{"error": {"code", "message"}}`. `code` is
 * one of {@link GatewayErrorCode}; `retryAfterSeconds` is its `Retry-After` (sent with `overloaded`).
 */
export class GatewayError extends Error {
  override readonly name = 'GatewayError';

  constructor(
    readonly code: GatewayErrorCode,
    /** The HTTP status. */
    readonly status: number,
    message: string,
    readonly retryAfterSeconds: number | undefined,
  ) {
    super(message);
  }
}
