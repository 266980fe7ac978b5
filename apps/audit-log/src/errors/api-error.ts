import { HttpException, HttpStatus } from '@nestjs/common';

/** Error codes of the query API (the `error.code` of every 4xx/5xx JSON body). */
export type ApiErrorCode = 'unauthorized' | 'not_found' | 'invalid_request' | 'unavailable' | 'internal';

/** An HTTP API error with a JSON body `{"error": {"code", "message"}}`. */
export class ApiError extends HttpException {
  constructor(
    status: HttpStatus,
    readonly code: ApiErrorCode,
    message: string,
  ) {
    super({ error: { code, message } }, status);
  }
}
