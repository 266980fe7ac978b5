import { err, ok, type Result } from '@llm-stream/contract';

/** One step of a path: an object member name or an array index. */
export type JsonPathSegment = string | number;

export interface JsonPathError {
  readonly code: 'invalid_json_path';
  readonly message: string;
}

/** Deeper paths are refused: nobody declares such parameters, and JSON.stringify of them overflows the stack. */
export const MAX_JSON_PATH_DEPTH = 64;

const DIGITS = /^(0|[1-9]\d{0,8})$/;
const ESCAPES: Readonly<Record<string, string>> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', '/': '/', '\\': '\\', "'": "'", '"': '"' };

/**
 * The singular JSONPath of a Vertex `PartialArg.jsonPath` (RFC 9535, e.g. `$.foo.bar[0].data`) as
 * segments. Vertex writes member names in dot notation and indexes in brackets; the bracketed name form of
 * RFC 9535's normalized paths (`$['a b']`, `$["x"]`) is read too. Wildcards, slices and filters select
 * several nodes and can never name one argument: they are refused, as is anything else.
 * https://www.rfc-editor.org/rfc/rfc9535#name-normalized-paths
 */
export function parseJsonPath(path: string): Result<readonly JsonPathSegment[], JsonPathError> {
  if (!path.startsWith('$')) return invalid(path, 'it does not start with $');
  const segments: JsonPathSegment[] = [];
  let at = 1;
  while (at < path.length) {
    if (segments.length >= MAX_JSON_PATH_DEPTH) return invalid(path, `it is deeper than ${MAX_JSON_PATH_DEPTH} levels`);
    const char = path[at];
    if (char === '.') {
      let end = at + 1;
      while (end < path.length && path[end] !== '.' && path[end] !== '[') end++;
      const name = path.slice(at + 1, end);
      if (name === '' || name === '*') return invalid(path, `segment ${segments.length + 1} has no member name`);
      segments.push(name);
      at = end;
    } else if (char === '[') {
      const close = readBracket(path, at);
      if (!close.ok) return invalid(path, close.error);
      segments.push(close.value.segment);
      at = close.value.next;
    } else {
      return invalid(path, `unexpected ${JSON.stringify(char)} at offset ${at}`);
    }
  }
  return ok(segments);
}

function readBracket(path: string, open: number): Result<{ segment: JsonPathSegment; next: number }, string> {
  const quote = path[open + 1];
  if (quote === "'" || quote === '"') {
    let name = '';
    for (let at = open + 2; at < path.length; at++) {
      const char = path[at];
      if (char === quote) {
        if (path[at + 1] !== ']') return err(`a quoted name is not followed by ] at offset ${at + 1}`);
        return ok({ segment: name, next: at + 2 });
      }
      if (char === '\\') {
        const escape = readEscape(path, at + 1);
        if (escape === undefined) return err(`a bad escape at offset ${at}`);
        name += escape.text;
        at = escape.last;
      } else {
        name += char ?? '';
      }
    }
    return err('a quoted name is not closed');
  }
  const close = path.indexOf(']', open);
  const digits = close < 0 ? '' : path.slice(open + 1, close);
  if (!DIGITS.test(digits)) return err(`[${digits}] is not an array index`);
  return ok({ segment: Number(digits), next: close + 1 });
}

function readEscape(path: string, at: number): { text: string; last: number } | undefined {
  const char = path[at];
  if (char === undefined) return undefined;
  const simple = ESCAPES[char];
  if (simple !== undefined) return { text: simple, last: at };
  if (char !== 'u') return undefined;
  const hex = path.slice(at + 1, at + 5);
  if (!/^[0-9a-fA-F]{4}$/.test(hex)) return undefined;
  return { text: String.fromCharCode(parseInt(hex, 16)), last: at + 4 };
}

function invalid(path: string, why: string): Result<never, JsonPathError> {
  const shown = path.length > 80 ? `${path.slice(0, 80)}…` : path;
  return err({ code: 'invalid_json_path', message: `jsonPath ${JSON.stringify(shown)} is not usable: ${why}` });
}
