import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { err, ok, type Result } from '@llm-stream/contract';

/** A configuration value that does not pass validation: names the environment variable. */
export interface ConfigError {
  readonly code: 'invalid_config';
  readonly variable: string;
  readonly message: string;
}

/**
 * Reads a service's configuration from environment variables into a class-validator annotated class whose
 * property names are the variable names. Unset variables keep the class's defaults; values are converted by
 * the class's `@Type`/`@Transform` decorators. The first invalid variable is reported by name.
 */
export function loadConfig<T extends object>(
  configClass: new () => T,
  env: Readonly<Record<string, string | undefined>>,
): Result<T, ConfigError> {
  const defaults = new configClass();
  const provided: Record<string, string> = {};
  for (const key of Object.keys(defaults)) {
    const value = env[key];
    if (value !== undefined && value !== '') provided[key] = value;
  }
  const instance = plainToInstance(configClass, { ...defaults, ...provided });
  const errors = validateSync(instance, { forbidUnknownValues: true });
  const first = errors[0];
  if (first === undefined) return ok(instance);
  return err(toConfigError(first, provided));
}

/** Values of these variables are never echoed back, even when invalid. */
const SECRET_NAME = /KEY|SECRET|PASSWORD|TOKEN|DATABASE_URL/i;

function toConfigError(error: ValidationError, provided: Record<string, string>): ConfigError {
  const reasons = Object.values(error.constraints ?? {}).join('; ');
  const given = provided[error.property];
  const shown =
    given === undefined
      ? 'unset'
      : SECRET_NAME.test(error.property)
        ? 'value hidden'
        : `got ${JSON.stringify(given.length > 80 ? `${given.slice(0, 80)}…` : given)}`;
  return {
    code: 'invalid_config',
    variable: error.property,
    message: `invalid configuration: ${error.property} ${reasons || 'is invalid'} (${shown})`,
  };
}
