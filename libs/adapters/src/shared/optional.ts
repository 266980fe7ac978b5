/**
 * Spread helper for exactOptionalPropertyTypes: `{...optional('name', value)}` adds the property only when
 * the value is defined, so no event ever carries `name: undefined`.
 */
export function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
