/**
 * Names a gateway upstream route (`POST /v1/streams/{route}`): the four protocol names are the default
 * routes, an operator's route file adds others. Route names appear in URLs, events and metric labels, so
 * they are lower-case letters, digits, `_` and `-`, starting with a letter or digit.
 */
export const ROUTE_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export function isValidRouteName(value: unknown): value is string {
  return typeof value === 'string' && ROUTE_NAME_PATTERN.test(value);
}
