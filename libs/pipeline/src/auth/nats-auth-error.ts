/** A NATS authorization setting that cannot be turned into a server configuration or a connection. */
export class NatsAuthError extends Error {
  override readonly name = 'NatsAuthError';

  constructor(
    readonly code: 'invalid_tenant' | 'missing_credentials' | 'streams_missing',
    message: string,
    options?: { readonly cause?: unknown },
  ) {
    super(message, options);
  }
}
