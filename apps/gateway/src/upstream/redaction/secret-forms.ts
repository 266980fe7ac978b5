/**
 * The regular-expression sources that match one secret in the forms a provider may echo it back:
 *
 * - as is, JSON-escaped or percent-encoded, in any mix: any subset of its characters written `\uXXXX` (hex
 *   digits in either case; `/` also as `\/`), with the backslash itself escaped again (JSON inside a JSON
 *   string: `\\u0073`), or as `%XX` (either case);
 * - base64 (standard and URL alphabet) at each of the three byte alignments it can have inside a longer
 *   encoded text: only the characters that depend on the secret's bytes alone, so the match does not depend
 *   on what surrounds it (the one or two boundary characters left carry a few bits of the secret at most).
 */
export function secretPatterns(secret: string): string[] {
  return unique([characterPatterns(secret).join(''), ...base64Cores(secret).map(escapeRegExp)]);
}

/**
 * The regular-expression sources that match what is left of one secret where a text was cut: at the end of
 * the text (`$`), the first `minLength` characters of the secret or more, in the forms of
 * {@link secretPatterns}, then whatever part of the next character's escape made it before the cut (`\u00`,
 * `%4`, a lone backslash, the U+FFFD of a UTF-8 sequence cut short); for base64, the first `minLength`
 * characters of a core or more.
 */
export function secretCutPatterns(secret: string, minLength: number): string[] {
  const escaped = `${prefixPattern(characterPatterns(secret), minLength)}${PARTIAL_ESCAPE}$`;
  const encoded = base64Cores(secret).map((core) => `${prefixPattern(Array.from(core).map(escapeRegExp), minLength)}$`);
  return unique([escaped, ...encoded]);
}

/** Each character as is, JSON-escaped or percent-encoded: any mix of the three matches. */
function characterPatterns(secret: string): string[] {
  return Array.from(secret).map((character) => `(?:${[escapeRegExp(character), ...jsonEscapes(character), ...percentEscapes(character)].join('|')})`);
}

/** The first `minLength` of `parts` or more of them, in order: `p0…p7(?:p8(?:p9)?)?`. */
function prefixPattern(parts: readonly string[], minLength: number): string {
  const required = parts.slice(0, minLength).join('');
  const optional = parts.slice(minLength).reduceRight((rest, part) => `(?:${part}${rest})?`, '');
  return `${required}${optional}`;
}

/** The start of an escape cut short: backslashes with part of `uXXXX`, part of `%XX` sequences, or U+FFFD. */
const PARTIAL_ESCAPE = '(?:\\\\+(?:u[0-9a-fA-F]{0,4})?|(?:%[0-9a-fA-F]{0,2}){1,4}|\uFFFD)?';

/** One or more backslashes: the escape, or the escape escaped again by an outer JSON string. */
const BACKSLASHES = '\\\\+';

function jsonEscapes(character: string): string[] {
  const forms = utf16Units(character).map((unit) => `${BACKSLASHES}u${hexPattern(unit, 4)}`);
  // `\uD83D\uDE00`: a character outside the BMP is escaped as its surrogate pair.
  const units = forms.length === 1 ? forms : [forms.join('')];
  if (character === '/' || character === '"' || character === '\\') units.push(`${BACKSLASHES}${escapeRegExp(character)}`);
  return units;
}

function percentEscapes(character: string): string[] {
  return [[...Buffer.from(character, 'utf8')].map((byte) => `%${hexPattern(byte, 2)}`).join('')];
}

function base64Cores(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const cores: string[] = [];
  for (let offset = 0; offset < 3; offset += 1) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64').replace(/=+$/, '');
    // Character i of the encoding holds bits [6i, 6i + 6); the secret holds bits [8 offset, 8 (offset + n)).
    const core = encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
    if (core.length < 8) continue;
    cores.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return cores;
}

/** `value` as `digits` hex digits, each letter matched in either case. */
function hexPattern(value: number, digits: number): string {
  return Array.from(value.toString(16).padStart(digits, '0')).map((digit) => (/[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit)).join('');
}

function utf16Units(character: string): number[] {
  const units: number[] = [];
  for (let index = 0; index < character.length; index += 1) units.push(character.charCodeAt(index));
  return units;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
