/**
 * The audit API refused a request or could not be asked. `unauthorized` (401: an unknown key), `forbidden`
 * (403: the key lacks the scope), `not_found` (404: no such stream for the key's tenant), `rejected` (another
 * 4xx), `unavailable` (no answer, or a 5xx: try again). The CLI prints the message and exits 2 (3 for
 * `unavailable`).
 */
export type AuditApiErrorCode = 'unauthorized' | 'forbidden' | 'not_found' | 'rejected' | 'unavailable';

export class AuditApiError extends Error {
  constructor(
    readonly code: AuditApiErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AuditApiError';
  }
}
