import { err, ok, type Result } from '@llm-stream/contract';

/** A rejected control-API body: `field` is the JSON path of the offending value, e.g. `responses[1].chunk_bytes`. */
export interface FieldError {
  readonly code: 'invalid_scenario';
  readonly field: string;
  readonly message: string;
}

export type Checked<T> = Result<T, FieldError>;
export type JsonObject = Readonly<Record<string, unknown>>;

export function fieldError(field: string, message: string): { readonly ok: false; readonly error: FieldError } {
  return err({ code: 'invalid_scenario', field, message });
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function path(parent: string, key: string): string {
  return parent === '' ? key : `${parent}.${key}`;
}

/** Unknown keys are rejected so a typo (`chunk_size`) fails loudly instead of silently doing nothing. */
export function onlyKeys(object: JsonObject, allowed: readonly string[], at: string): Checked<null> {
  const unknown = Object.keys(object).find((key) => !allowed.includes(key));
  if (unknown === undefined) return ok(null);
  return fieldError(path(at, unknown), `unknown field; expected one of ${allowed.join(', ')}`);
}

interface NumberRule {
  readonly min: number;
  readonly max: number;
  readonly integer: boolean;
}

/** A number in [min, max] (an integer when the rule says so), or `fallback` when the key is absent. */
export function numberField<F extends number | null>(
  object: JsonObject,
  key: string,
  at: string,
  rule: NumberRule,
  fallback: F,
): Checked<number | F> {
  const value = object[key];
  if (value === undefined) return ok(fallback);
  const valid =
    typeof value === 'number' &&
    Number.isFinite(value) &&
    (!rule.integer || Number.isInteger(value)) &&
    value >= rule.min &&
    value <= rule.max;
  if (valid) return ok(value);
  const kind = rule.integer ? 'an integer' : 'a number';
  return fieldError(path(at, key), `must be ${kind} from ${rule.min} to ${rule.max}, got ${JSON.stringify(value)}`);
}

export function requiredNumberField(object: JsonObject, key: string, at: string, rule: NumberRule): Checked<number> {
  if (object[key] === undefined) return fieldError(path(at, key), 'is required');
  return numberField(object, key, at, rule, 0);
}
