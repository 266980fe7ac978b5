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
  const characters = Array.from(secret);
  // Each character as is, JSON-escaped or percent-encoded: any mix of the three matches.
  const escaped = characters
    .map((character) => `(?:${[escapeRegExp(character), ...jsonEscapes(character), ...percentEscapes(character)].join('|')})`)
    .join('');
  return unique([escaped, ...base64Cores(secret).map(escapeRegExp)]);
}

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
