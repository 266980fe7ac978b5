/**
 * Structured JSON logs, one object per line: `{"ts":..., "level":..., "service":..., "msg":..., ...fields}`.
 * Fields are primitives only, so a message body can never be logged by accident; values under secret-looking
 * keys are replaced by `[redacted]`. Lines about a stream carry `stream_id` and `trace_id` (use `child`).
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogValue = string | number | boolean | null;
export type LogFields = Readonly<Record<string, LogValue | undefined>>;

const LEVEL_ORDER: Readonly<Record<LogLevel, number>> = { debug: 10, info: 20, warn: 30, error: 40 };
const SECRET_KEY = /authorization|api[-_]?key|secret|password|token|cookie/i;

export interface JsonLoggerOptions {
  readonly level?: LogLevel;
  /** Where lines go; stdout by default. */
  readonly write?: (line: string) => void;
  readonly clock?: () => number;
}

export class JsonLogger {
  private readonly minimum: number;
  private readonly write: (line: string) => void;
  private readonly clock: () => number;

  constructor(
    private readonly service: string,
    options: JsonLoggerOptions = {},
    private readonly bound: LogFields = {},
  ) {
    this.minimum = LEVEL_ORDER[options.level ?? 'info'];
    this.write = options.write ?? ((line) => process.stdout.write(`${line}\n`));
    this.clock = options.clock ?? Date.now;
  }

  /** A logger whose every line also carries `fields` (e.g. `{stream_id, trace_id}`). */
  child(fields: LogFields): JsonLogger {
    return new JsonLogger(
      this.service,
      { level: levelOf(this.minimum), write: this.write, clock: this.clock },
      { ...this.bound, ...fields },
    );
  }

  isEnabled(level: LogLevel): boolean {
    return LEVEL_ORDER[level] >= this.minimum;
  }

  debug(msg: string, fields?: LogFields): void {
    this.log('debug', msg, fields);
  }

  info(msg: string, fields?: LogFields): void {
    this.log('info', msg, fields);
  }

  warn(msg: string, fields?: LogFields): void {
    this.log('warn', msg, fields);
  }

  error(msg: string, fields?: LogFields): void {
    this.log('error', msg, fields);
  }

  log(level: LogLevel, msg: string, fields?: LogFields): void {
    if (LEVEL_ORDER[level] < this.minimum) return;
    const line: Record<string, LogValue> = { ts: new Date(this.clock()).toISOString(), level, service: this.service, msg };
    for (const source of [this.bound, fields ?? {}]) {
      for (const [key, value] of Object.entries(source)) {
        if (value === undefined) continue;
        line[key] = SECRET_KEY.test(key) ? '[redacted]' : value;
      }
    }
    this.write(JSON.stringify(line));
  }
}

function levelOf(minimum: number): LogLevel {
  const found = (Object.keys(LEVEL_ORDER) as LogLevel[]).find((level) => LEVEL_ORDER[level] === minimum);
  return found ?? 'info';
}

export function isLogLevel(value: unknown): value is LogLevel {
  return value === 'debug' || value === 'info' || value === 'warn' || value === 'error';
}
