/** A subject's messages could not be proven stored. */
export class PublishError extends Error {
  constructor(
    readonly code: 'not_stored' | 'storage_check_failed',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'PublishError';
  }
}
