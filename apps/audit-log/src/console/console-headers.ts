/**
 * The console shows model and provider output: it must never run any of it. Scripts and styles come only from
 * the console's own files (no inline script or style, no eval), it talks only to this origin, and it cannot be
 * framed. https://www.w3.org/TR/CSP3/ ; `require-trusted-types-for 'script'` makes any innerHTML-style sink
 * throw in Chromium, on top of the console never using one.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
  'trusted-types',
].join('; ');

export const CONSOLE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONSOLE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'x-frame-options': 'DENY',
};
