/**
 * What may be logged of an error whose message can quote data (V8's JSON syntax errors quote the text,
 * PostgreSQL's data errors quote values): its code (a SQLSTATE, an errno code, ours) or its class name, never
 * its message.
 */
export function errorCode(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const { code } = error as { code?: unknown };
    if (typeof code === 'string' && code !== '') return code;
  }
  return error instanceof Error ? error.name : typeof error;
}
