import { err, jsonSyntaxProblem, ok, type Result } from '@llm-stream/contract';

export interface PayloadError {
  readonly code: 'invalid_json' | 'not_an_object';
  readonly message: string;
}

export type JsonObject = Record<string, unknown>;

/** `JSON.parse` of one SSE data payload, as a value: providers' payloads are always JSON objects. */
export function parseJsonObject(data: string): Result<JsonObject, PayloadError> {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch (error) {
    return err({ code: 'invalid_json', message: `payload is not valid JSON: ${jsonSyntaxProblem(error, data)}` });
  }
  if (!isObject(value)) return err({ code: 'not_an_object', message: 'payload is JSON but not an object' });
  return ok(value);
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string field, or undefined when absent or of another type. */
export function stringField(object: JsonObject, key: string): string | undefined {
  const value = object[key];
  return typeof value === 'string' ? value : undefined;
}

/** A finite number field, or undefined when absent or of another type. */
export function numberField(object: JsonObject, key: string): number | undefined {
  const value = object[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** An object field, or undefined when absent or of another type. */
export function objectField(object: JsonObject, key: string): JsonObject | undefined {
  const value = object[key];
  return isObject(value) ? value : undefined;
}

/** An array field, or undefined when absent or of another type. */
export function arrayField(object: JsonObject, key: string): readonly unknown[] | undefined {
  const value = object[key];
  return Array.isArray(value) ? value : undefined;
}
