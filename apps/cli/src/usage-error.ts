/** Bad usage or an unreadable input: the CLI prints one line and exits 2, never a stack trace. */
export class UsageError extends Error {
  readonly code = 'usage' as const;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UsageError';
  }
}
