/**
 * Redaction of the raw trace before it is stored. The gateway never puts its provider keys or the client's
 * headers into the trace, but upstream error bodies can echo credentials ("Incorrect API key provided:
 * sk-...") and any JSON the trace carries may hold a secret-bearing field. So every stored raw body (frame
 * text or record JSON) and every captured prompt goes through {@link redactText}:
 *
 * - the string value of a secret-bearing JSON member (`"authorization"`, `"api_key"`, `"x-api-key"`,
 *   `"x-goog-api-key"`, `"access_token"`, `"client_secret"`, `"password"`, `"cookie"`... at any depth) becomes
 *   `"[redacted]"`;
 * - a `Name: value` header line of those names keeps its name, the value becomes `[redacted]`;
 * - credential-shaped values anywhere: `Bearer <token>`, OpenAI/Anthropic keys (`sk-...`), Google API keys
 *   (`AIza...`).
 *
 * Everything else stays byte-exact, so a frame without secrets is stored exactly as received. A record that
 * was changed is flagged `redacted`: replaying it may not reproduce the stored events (the stored events
 * remain the record of what the stream was).
 */
export interface Redacted {
  readonly text: string;
  readonly redacted: boolean;
}

const SECRET_NAMES =
  'authorization|proxy-authorization|x-api-key|api[-_]?key|x-goog-api-key|access[-_]?token|refresh[-_]?token|id[-_]?token|session[-_]?token|client[-_]?secret|secret|password|passwd|cookie|set-cookie|private[-_]?key';

/** `"name": "value"` for a secret-bearing name (the value may contain escaped quotes). */
const SECRET_MEMBER = new RegExp(`("(?:${SECRET_NAMES})"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'gi');
/** `Name: value` on a line of its own. */
const SECRET_HEADER_LINE = new RegExp(`^((?:${SECRET_NAMES})[ \\t]*:[ \\t]*)[^\\r\\n]+`, 'gim');
const BEARER = /\b(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi;
const PROVIDER_KEY = /\b(?:sk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}|AIza[0-9A-Za-z_-]{35})/g;

/** Cheap pre-check: most frames contain none of these and skip the replacements. */
const MIGHT_HOLD_SECRET = /authoriz|key|token|secret|passw|cookie|bearer|sk-|AIza/i;

const REDACTED = '[redacted]';

export function redactText(text: string): Redacted {
  if (!MIGHT_HOLD_SECRET.test(text)) return { text, redacted: false };
  const result = text
    .replace(SECRET_MEMBER, `$1"${REDACTED}"`)
    .replace(SECRET_HEADER_LINE, `$1${REDACTED}`)
    .replace(BEARER, `$1${REDACTED}`)
    .replace(PROVIDER_KEY, REDACTED);
  return { text: result, redacted: result !== text };
}
