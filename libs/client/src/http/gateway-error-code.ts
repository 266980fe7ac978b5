/**
 * Every `error.code` the gateway's HTTP API answers with (its `ApiErrorCode`, which includes the codes its
 * exception filter gives the framework's and the body parser's errors). The gateway is an app, which a
 * published library cannot import, so the list is written here once and
 * `apps/e2e/test/http-client-errors.spec.ts` fails when it differs from the gateway's union.
 */
export const GATEWAY_ERROR_CODES = [
  /** 401: no API key, or one the gateway does not know. */
  'unauthorized',
  /** 403: the key lacks the `streams` scope. */
  'insufficient_scope',
  /** 404: no such stream for this key's tenant (another tenant's stream is indistinguishable from none), or no such path. */
  'not_found',
  /** 404: the route names no configured route or protocol. */
  'unknown_provider',
  /** 403: the key's tenant may not use that route. */
  'route_not_allowed',
  /** 400: the request is not one the route accepts (a missing model, a bad `Last-Event-ID`). */
  'invalid_request',
  /** 400: the body is not valid JSON. */
  'invalid_json',
  /** 413: the body is larger than the gateway's `MAX_BODY_BYTES`. */
  'body_too_large',
  /** 409: cancel of a stream that has already ended. */
  'already_ended',
  /** 400: a resume's `Last-Event-ID` is past the stream's terminal event: no event follows it. */
  'beyond_end',
  /** 503: the gateway is shutting down or cannot reach NATS; nothing was sent to the provider. */
  'unavailable',
  /** 503 with `Retry-After`: the gateway refuses new streams for now (stream slots or event-loop lag). */
  'overloaded',
  /** 500: an error the gateway did not expect. */
  'internal',
] as const;

export type GatewayErrorCode = (typeof GATEWAY_ERROR_CODES)[number];

export function isGatewayErrorCode(value: unknown): value is GatewayErrorCode {
  return typeof value === 'string' && (GATEWAY_ERROR_CODES as readonly string[]).includes(value);
}
