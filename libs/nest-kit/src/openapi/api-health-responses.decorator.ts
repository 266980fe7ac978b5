import { applyDecorators } from '@nestjs/common';
import { ApiResponse, type SchemaObject } from '@nestjs/swagger';

const CHECKS: SchemaObject = {
  type: 'object',
  description: 'Each check: `ok`, or what is wrong with it (`unreachable`, `draining`, ...).',
  additionalProperties: { type: 'string' },
};

function readinessSchema(status: 'ready' | 'unavailable', detail: Readonly<Record<string, SchemaObject>>): SchemaObject {
  return {
    type: 'object',
    required: ['status', 'checks', ...Object.keys(detail)],
    additionalProperties: false,
    properties: { status: { type: 'string', enum: [status] }, checks: CHECKS, ...detail },
  };
}

/** `GET /health/live`: 200 `{"status": "ok"}` while the process serves HTTP. */
export function ApiLiveResponse(): MethodDecorator {
  return ApiResponse({
    status: 200,
    description: 'The process serves HTTP.',
    content: { 'application/json': { schema: { type: 'object', required: ['status'], additionalProperties: false, properties: { status: { type: 'string', enum: ['ok'] } } } } },
  });
}

/**
 * `GET /health/ready`: 200 {@link Readiness} while every check is `ok`, else 503 {@link Unreadiness} (the same
 * checks, not the API error shape: probes and operators read which check failed). `detail` is what the service
 * adds beside its checks on both answers.
 */
export function ApiReadinessResponses(detail: Readonly<Record<string, SchemaObject>> = {}): MethodDecorator {
  return applyDecorators(
    ApiResponse({ status: 200, description: 'Every check is ok.', content: { 'application/json': { schema: readinessSchema('ready', detail) } } }),
    ApiResponse({ status: 503, description: 'A check failed: which one is in `checks`.', content: { 'application/json': { schema: readinessSchema('unavailable', detail) } } }),
  );
}
