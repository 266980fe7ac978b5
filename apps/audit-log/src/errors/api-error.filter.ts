import { Catch, HttpException, HttpStatus, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { JsonLogger } from '@llm-stream/service-kit';
import { ApiError, type ApiErrorCode } from './api-error.js';
import { errorCode } from './error-code.js';

/**
 * Every error leaves as JSON `{"error": {"code", "message"}}`: our ApiErrors as they are, the framework's
 * (unknown route, 503 of the readiness probe with its checks) mapped to a code, anything else as a 500
 * without details.
 */
@Catch()
export class ApiErrorFilter implements ExceptionFilter {
  constructor(private readonly logger: JsonLogger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<ServerResponse>();
    if (response.headersSent) {
      response.end();
      return;
    }
    const { status, body } = this.describe(exception);
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    response.end(JSON.stringify(body));
  }

  private describe(exception: unknown): { status: number; body: unknown } {
    if (exception instanceof ApiError) return { status: exception.status, body: exception.body };
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const response = exception.getResponse();
      // The readiness probe's 503 carries its checks: an operator needs them as they are.
      if (typeof response === 'object' && 'checks' in response) return { status, body: response };
      return { status, body: { error: { code: codeFor(status), message: exception.message } } };
    }
    this.logger.error('unhandled error', { error: errorCode(exception) });
    return { status: HttpStatus.INTERNAL_SERVER_ERROR, body: { error: { code: 'internal', message: 'internal error' } } };
  }
}

function codeFor(status: number): ApiErrorCode {
  if (status === 401) return 'unauthorized';
  if (status === 404) return 'not_found';
  if (status === 503) return 'unavailable';
  return status >= 500 ? 'internal' : 'invalid_request';
}
