import { jsonSyntaxProblem } from '../json-syntax-problem.js';
import { err, ok, type Result } from '../result.js';
import type { JsonValue } from './provider-metadata.js';

/** Parsed arguments of a finished tool call: always a JSON object in every provider's API. */
export type ToolArguments = Readonly<Record<string, JsonValue>>;

export interface ToolArgumentsError {
  readonly code: 'invalid_json' | 'not_an_object';
  readonly message: string;
}

/**
 * Parses the concatenated `json_text` of a closed tool-call block. Called once, at `block.stop` (partial
 * JSON is not JSON). An empty or blank string is a zero-parameter call (OpenAI sends `""`, Anthropic sends
 * no fragment at all) and parses as `{}`. One function for the state machine, the invariant checker and the
 * assembler, so they can never disagree on which arguments are acceptable.
 */
export function parseToolArguments(raw: string): Result<ToolArguments, ToolArgumentsError> {
  if (raw.trim() === '') return ok({});
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return err({ code: 'invalid_json', message: `arguments are not valid JSON: ${jsonSyntaxProblem(error, raw)}` });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const found = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    return err({ code: 'not_an_object', message: `arguments are ${found}, not a JSON object` });
  }
  return ok(value as ToolArguments);
}
