import { Catch, HttpException, HttpStatus, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { JsonLogger } from '@llm-stream/service-kit';
import { ApiError, type ApiErrorCode } from './api-error.js';

/**
 * Every error leaves as JSON `{"error": {"code", "message"}}`: our ApiErrors as they are, the framework's
 * (invalid JSON body, body too large, unknown route) mapped to a code, anything else as a 500 without details.
 */
@Catch()
export class ApiErrorFilter implements ExceptionFilter {
  constructor(private readonly logger: JsonLogger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<ServerResponse>();
    const { status, code, message } = this.describe(exception);
    if (response.headersSent) {
      response.end();
      return;
    }
    const retryAfter = exception instanceof ApiError ? exception.retryAfterSeconds : undefined;
    response.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      ...(retryAfter !== undefined && { 'retry-after': String(retryAfter) }),
    });
    response.end(JSON.stringify({ error: { code, message } }));
  }

  private describe(exception: unknown): { status: number; code: ApiErrorCode; message: string } {
    if (exception instanceof ApiError) return { status: exception.status, code: exception.code, message: exception.message };
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const code = codeFor(status, exception.message);
      // The JSON parser's message quotes the body: never echo it.
      return { status, code, message: code === 'invalid_json' ? 'the request body is not valid JSON' : exception.message };
    }
    const bodyParser = exception as { type?: unknown; status?: unknown };
    if (bodyParser.type === 'entity.parse.failed') return { status: 400, code: 'invalid_json', message: 'the request body is not valid JSON' };
    if (bodyParser.type === 'entity.too.large') return { status: 413, code: 'body_too_large', message: 'the request body is larger than MAX_BODY_BYTES' };
    this.logger.error('unhandled error', { error: exception instanceof Error ? exception.message : String(exception) });
    return { status: HttpStatus.INTERNAL_SERVER_ERROR, code: 'internal', message: 'internal error' };
  }
}

function codeFor(status: number, message: string): ApiErrorCode {
  if (status === 401) return 'unauthorized';
  if (status === 404) return 'not_found';
  if (status === 413) return 'body_too_large';
  if (status === 400 && /JSON/i.test(message)) return 'invalid_json';
  if (status === 503) return 'unavailable';
  return status >= 500 ? 'internal' : 'invalid_request';
}
