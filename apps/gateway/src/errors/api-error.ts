import { HttpException, HttpStatus } from '@nestjs/common';

/** Error codes of the HTTP API (the `error.code` of every 4xx/5xx JSON body). */
export type ApiErrorCode =
  | 'unauthorized'
  | 'not_found'
  | 'unknown_provider'
  | 'invalid_request'
  | 'invalid_json'
  | 'body_too_large'
  | 'already_ended'
  | 'unavailable'
  | 'internal';

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
