import { applyDecorators } from '@nestjs/common';
import { ApiResponse, type SchemaObject } from '@nestjs/swagger';

/** The error statuses an operation answers, each with the `error.code`s it carries. */
export type ErrorResponses<Code extends string> = Readonly<Partial<Record<ErrorStatus, readonly Code[]>>>;

/** The error statuses the services answer with (the filter writes every one with the API error body). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 500 | 503;

const DESCRIPTIONS: Readonly<Record<ErrorStatus, string>> = {
  400: 'The request is invalid.',
  401: 'No API key, or an unknown one.',
  403: 'The key may not do this.',
  404: 'No such resource (another tenant’s is indistinguishable from none).',
  409: 'The resource is in a state that refuses this.',
  413: 'The request body is larger than MAX_BODY_BYTES.',
  415: 'The request body’s Content-Encoding is not one the service reads.',
  500: 'An unexpected error; it says nothing about itself (the service logs its code).',
  503: 'The service cannot take this now; try again (after `Retry-After` seconds when it is sent).',
};

/** `{"error": {"code", "message"}}` with the codes this status carries (ApiErrorBody of @llm-stream/service-kit). */
function errorBodySchema(codes: readonly string[]): SchemaObject {
  return {
    type: 'object',
    required: ['error'],
    additionalProperties: false,
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message'],
        additionalProperties: false,
        properties: { code: { type: 'string', enum: [...codes] }, message: { type: 'string' } },
      },
    },
  };
}

/**
 * Documents an operation's error responses: one per status, its body the API error shape whose `code` is one of
 * the listed codes. `Retry-After` is documented on 503 (the gateway sends it when it is overloaded).
 */
export function ApiErrorResponses<Code extends string>(responses: ErrorResponses<Code>): MethodDecorator & ClassDecorator {
  const decorators = Object.entries(responses).map(([status, codes]) => {
    const code = Number(status) as ErrorStatus;
    return ApiResponse({
      status: code,
      description: DESCRIPTIONS[code],
      content: { 'application/json': { schema: errorBodySchema(codes) } },
      ...(code === 503 && { headers: { 'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer' } } } }),
    });
  });
  return applyDecorators(...decorators);
}
