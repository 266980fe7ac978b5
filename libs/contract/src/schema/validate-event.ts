import { Ajv2020, type AnySchemaObject, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { EVENT_TYPES, type ContractEvent } from '../events/contract-event.js';
import { err, ok, type Result } from '../result.js';
import { CONTRACT_SCHEMA } from './contract-schema.js';

/** One schema failure: where (a JSON Pointer into the event, `''` for the event itself) and what. */
export interface EventValidationIssue {
  readonly path: string;
  readonly keyword: string;
  readonly message: string;
}

export interface EventValidationError {
  readonly code: 'schema_violation';
  /** Readable summary, e.g. `block.delta event: /delta/kind must be one of: json_text`. */
  readonly message: string;
  /** JSON Pointer of the first failing value. */
  readonly path: string;
  readonly issues: readonly EventValidationIssue[];
}

let compiled: ValidateFunction | undefined;

/**
 * Compiled on first use and kept: compiling costs milliseconds, validating an event then costs well under a
 * microsecond. `allErrors` stays off (first failure wins) because the checker and the boundaries only need
 * to know that and where an event is wrong.
 */
function validator(): ValidateFunction {
  compiled ??= new Ajv2020({ discriminator: true, strict: true, strictRequired: false, allErrors: false }).compile(
    CONTRACT_SCHEMA as AnySchemaObject,
  );
  return compiled;
}

/** Checks any value against the contract schema; on success the same value, typed. */
export function validateEvent(value: unknown): Result<ContractEvent, EventValidationError> {
  const validate = validator();
  if (validate(value)) return ok(value as ContractEvent);
  // `errors` belongs to the function and is overwritten by the next call: read it now.
  return err(toValidationError(value, validate.errors ?? []));
}

function toValidationError(value: unknown, errors: readonly ErrorObject[]): EventValidationError {
  const issues = errors.map((error) => ({ path: error.instancePath, keyword: error.keyword, message: describe(error) }));
  // Conditional rules report the inner failure first and then a generic "must match then schema": lead with
  // the specific one.
  const first = issues.find((issue) => issue.keyword !== 'if') ?? issues[0];
  const type = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)['type'] : undefined;
  const subject = (EVENT_TYPES as readonly unknown[]).includes(type) ? `${String(type)} event` : 'event';
  const where = first === undefined || first.path === '' ? '' : `${first.path} `;
  return {
    code: 'schema_violation',
    message: `${subject}: ${where}${first?.message ?? 'does not match the contract schema'}`,
    path: first?.path ?? '',
    issues,
  };
}

function describe(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
      return `must not have the property "${String(params['additionalProperty'])}"`;
    case 'required':
      return `must have the property "${String(params['missingProperty'])}"`;
    case 'enum':
      return `must be one of: ${(params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(params['allowedValue'])}`;
    case 'discriminator':
      return params['error'] === 'tag'
        ? 'must have a string "type"'
        : `has an unknown type ${JSON.stringify(params['tagValue'])}`;
    default:
      return error.message ?? `fails the ${error.keyword} rule`;
  }
}
