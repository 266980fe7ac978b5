import { existsSync, statSync } from 'node:fs';
import { err, ok, type Result } from '@llm-stream/contract';

/** The replay provider's settings, all from environment variables (see README.md). */
export interface ReplayConfig {
  readonly port: number;
  readonly host: string;
  readonly transcriptsDir: string;
  /** When set, provider requests must carry this key in the provider's own auth header. */
  readonly requiredApiKey: string | null;
  /** Oldest entries of the request log are dropped beyond this many, so long benchmarks stay bounded. */
  readonly requestLogLimit: number;
  /** NDJSON file that gets one line per answered provider request (body and cut offset); null: off. */
  readonly servedLogPath: string | null;
}

/** A configuration error names the variable so the one line printed at start says what to fix. */
export interface ConfigError {
  readonly code: 'invalid_config';
  readonly variable: string;
  readonly message: string;
}

export const DEFAULT_PORT = 8787;
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_REQUEST_LOG_LIMIT = 10_000;

type Env = Readonly<Record<string, string | undefined>>;

export function parseConfig(env: Env, defaultTranscriptsDir: string): Result<ReplayConfig, ConfigError> {
  const port = parseInteger(env, 'REPLAY_PORT', DEFAULT_PORT, 0, 65_535);
  if (!port.ok) return port;
  const host = env['REPLAY_HOST'] ?? DEFAULT_HOST;
  if (host.trim() === '' || /\s/.test(host)) {
    return invalid('REPLAY_HOST', `must be a host name or IP address, got ${JSON.stringify(host)}`);
  }
  const transcriptsDir = env['REPLAY_TRANSCRIPTS_DIR'] ?? defaultTranscriptsDir;
  if (!isDirectory(transcriptsDir)) {
    return invalid('REPLAY_TRANSCRIPTS_DIR', `must be an existing directory, got ${JSON.stringify(transcriptsDir)}`);
  }
  const requiredApiKey = env['REPLAY_REQUIRE_API_KEY'];
  if (requiredApiKey?.trim() === '') {
    return invalid('REPLAY_REQUIRE_API_KEY', 'must not be empty when set (unset it to accept any key)');
  }
  const requestLogLimit = parseInteger(env, 'REPLAY_REQUEST_LOG_LIMIT', DEFAULT_REQUEST_LOG_LIMIT, 1, 10_000_000);
  if (!requestLogLimit.ok) return requestLogLimit;
  const servedLogPath = env['REPLAY_SERVED_LOG'];
  if (servedLogPath?.trim() === '') {
    return invalid('REPLAY_SERVED_LOG', 'must be a file path when set (unset it to log nothing)');
  }
  return ok({
    port: port.value,
    host,
    transcriptsDir,
    requiredApiKey: requiredApiKey ?? null,
    requestLogLimit: requestLogLimit.value,
    servedLogPath: servedLogPath ?? null,
  });
}

function parseInteger(env: Env, variable: string, fallback: number, min: number, max: number): Result<number, ConfigError> {
  const raw = env[variable];
  if (raw === undefined) return ok(fallback);
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    return invalid(variable, `must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  }
  return ok(value);
}

function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

function invalid(variable: string, message: string): { readonly ok: false; readonly error: ConfigError } {
  return err({ code: 'invalid_config', variable, message: `${variable} ${message}` });
}
