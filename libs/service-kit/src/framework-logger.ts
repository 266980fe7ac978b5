import type { JsonLogger, LogFields } from './json-logger.js';

/**
 * Routes a framework's logger calls (NestJS's LoggerService shape: log/error/warn/debug/verbose with an
 * optional context last) into the JSON logger, so framework lines and our own share one format. Only the
 * message and the context are kept: framework arguments are never dumped into a line.
 */
export class FrameworkLogger {
  constructor(private readonly logger: JsonLogger) {}

  log(message: unknown, ...rest: unknown[]): void {
    this.logger.info(text(message), context(rest));
  }

  error(message: unknown, ...rest: unknown[]): void {
    this.logger.error(text(message), context(rest));
  }

  warn(message: unknown, ...rest: unknown[]): void {
    this.logger.warn(text(message), context(rest));
  }

  debug(message: unknown, ...rest: unknown[]): void {
    this.logger.debug(text(message), context(rest));
  }

  verbose(message: unknown, ...rest: unknown[]): void {
    this.logger.debug(text(message), context(rest));
  }

  fatal(message: unknown, ...rest: unknown[]): void {
    this.logger.error(text(message), context(rest));
  }
}

function text(message: unknown): string {
  if (typeof message === 'string') return message;
  if (message instanceof Error) return message.message;
  return String(message);
}

/**
 * The framework passes its context (a class name) as the last string argument; `error` may pass a stack
 * before it (or alone), which is recognizable by its line breaks and is left out of the line.
 */
function context(rest: readonly unknown[]): LogFields {
  const last = rest.at(-1);
  return typeof last === 'string' && !last.includes('\n') ? { context: last } : {};
}
