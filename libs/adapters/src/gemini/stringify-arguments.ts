import { err, ok, type Result } from '@llm-stream/contract';

/**
 * `JSON.stringify` of a call's arguments, as a value: Gemini sends arguments as a parsed object, and
 * the contract carries them as JSON text. Stringifying cannot fail on JSON input except by exhausting
 * the stack on absurdly deep nesting, which a 1 MiB frame can hold; that becomes an error, not a throw.
 */
export function stringifyArguments(args: unknown): Result<string, string> {
  try {
    return ok(JSON.stringify(args));
  } catch (error) {
    return err(`arguments cannot be written as JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}
