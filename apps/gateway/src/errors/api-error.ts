import { HttpApiError } from '@llm-stream/service-kit';

/** Error codes of the HTTP API (the `error.code` of every 4xx/5xx JSON body). */
export type ApiErrorCode =
  | 'unauthorized'
  | 'insufficient_scope'
  | 'not_found'
  | 'unknown_provider'
  | 'route_not_allowed'
  | 'invalid_request'
  | 'invalid_json'
  | 'body_too_large'
  | 'already_ended'
  | 'beyond_end'
  | 'unavailable'
  | 'overloaded'
  | 'internal';

/** An HTTP API error with a JSON body `{"error": {"code", "message"}}` (written by the services' ApiErrorFilter). */
export class ApiError extends HttpApiError<ApiErrorCode> {}
