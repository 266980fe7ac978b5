import type { ContractEvent } from '../events/contract-event.js';
import { err, type Result } from '../result.js';
import { validateEvent, type EventValidationError } from './validate-event.js';

export interface InvalidJsonError {
  readonly code: 'invalid_json';
  readonly message: string;
}

export type EventLineError = InvalidJsonError | EventValidationError;

/**
 * Parses one NDJSON line (the CLI's and the audit log's format) into a validated event. Surrounding
 * whitespace, including a CR left by CRLF line splitting, is ignored; a blank line is invalid JSON.
 */
export function parseEventLine(line: string): Result<ContractEvent, EventLineError> {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    const reason = line.trim() === '' ? 'the line is empty' : error instanceof Error ? error.message : String(error);
    return err({ code: 'invalid_json', message: `not a JSON line: ${reason}` });
  }
  return validateEvent(value);
}
