import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { JsonLogger, errorCode } from '@llm-stream/service-kit';
import { describeError } from './describe-error.js';

/**
 * The one exception filter of every service's HTTP API: every error leaves as JSON, in the shape
 * {@link describeError} gives it (`{"error": {"code", "message"}}`, or a readiness probe's checks), with
 * `Retry-After` when the error names one. A response already streaming (SSE) is ended instead.
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
    const described = describeError(exception);
    // By its code only: a message can quote data (a JSON syntax error quotes the body, a database error values).
    if (described.kind === 'unexpected') this.logger.error('unhandled error', { error: errorCode(exception) });
    const retryAfter = described.kind === 'api' ? described.retryAfterSeconds : undefined;
    response.writeHead(described.status, {
      'content-type': 'application/json; charset=utf-8',
      ...(retryAfter !== undefined && { 'retry-after': String(retryAfter) }),
    });
    response.end(JSON.stringify(described.body));
  }
}
