import { HttpApiError } from '@llm-stream/service-kit';

/** Error codes of the query API (the `error.code` of every 4xx/5xx JSON body). */
export type ApiErrorCode = 'unauthorized' | 'insufficient_scope' | 'not_found' | 'invalid_request' | 'unavailable' | 'internal';

/** A query API error with a JSON body `{"error": {"code", "message"}}` (written by the services' ApiErrorFilter). */
export class ApiError extends HttpApiError<ApiErrorCode> {}
