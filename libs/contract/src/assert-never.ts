/**
 * Exhaustiveness guard for `switch` statements over discriminated unions: adding a member to a union
 * makes every switch that forgot it fail to compile. Reaching it at run time is a programmer error.
 */
export function assertNever(value: never, context = 'value'): never {
  throw new Error(`Unhandled ${context}: ${JSON.stringify(value)}`);
}
