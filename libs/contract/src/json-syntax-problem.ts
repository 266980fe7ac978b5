/**
 * What is wrong with a text that `JSON.parse` rejected, without quoting it. V8's messages include a snippet
 * of the input ("Unexpected token 'x', "...secret..." is not valid JSON"), and the input may be a model's
 * tool arguments or a provider payload: content must never reach an error message or a log line.
 */
export function jsonSyntaxProblem(error: unknown, text: string): string {
  const message = error instanceof Error ? error.message : '';
  if (/end of JSON input|Unterminated/i.test(message)) return `the JSON text ends before its value is complete (${String(text.length)} characters)`;
  const position = /position (\d+)/.exec(message)?.[1];
  if (position !== undefined) return `invalid JSON at position ${position} of ${String(text.length)} characters`;
  return `invalid JSON (${String(text.length)} characters)`;
}
