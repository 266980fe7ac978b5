import type { SseFrame } from '../sse/sse-frame.js';
import { isObject, type JsonObject } from '../shared/json-payload.js';

/**
 * What the non-SSE text received so far amounts to:
 * - `none`: nothing but blank lines;
 * - `pending`: text that is not (yet) a whole JSON value;
 * - `error`: a google.rpc error body, `{"error": {...}}` (or the `[{"error": {...}}]` of the JSON-array
 *   stream format), whose `error` object is given;
 * - `invalid`: text that is neither SSE nor an error body.
 */
export type UnframedVerdict =
  | { readonly kind: 'none' }
  | { readonly kind: 'pending' }
  | { readonly kind: 'error'; readonly error: JsonObject }
  | { readonly kind: 'invalid'; readonly message: string };

/** More unframed text than any error body needs: past it the text is refused rather than held. */
export const MAX_UNFRAMED_CHARS = 64 * 1024;

const SSE_FIELDS = new Set(['data', 'event', 'id', 'retry']);
const LINE_BREAK = /\r\n|\r|\n/;

/**
 * Collects the lines of a Gemini body that are not SSE at all. After HTTP 200 Google can send an error as
 * a bare pretty-printed JSON body with no `data:` prefix (vercel/ai #5217; js-genai sniffs raw chunks for
 * it): the SSE decoder reports those lines as `unknownLines` of data-less frames, one frame per blank-line
 * separated run and a final `partial` frame. They are joined here across frames until they parse.
 */
export class UnframedBody {
  private text = '';
  /** Bracket depth outside JSON strings, so the text is parsed only when a value may have closed. */
  private depth = 0;
  private inString = false;
  private escaped = false;

  /** Whether non-blank unframed text is held. */
  get pending(): boolean {
    return this.text.trim() !== '';
  }

  /** Adds a data-less frame's non-SSE lines; says `error` or `invalid` as soon as the text parses. */
  push(frame: SseFrame): UnframedVerdict {
    let closed = false;
    for (const line of frame.text.split(LINE_BREAK)) {
      if (line === '' || line.startsWith(':') || SSE_FIELDS.has(fieldName(line))) continue;
      if (this.text.length + line.length >= MAX_UNFRAMED_CHARS) {
        return { kind: 'invalid', message: `gemini: more than ${MAX_UNFRAMED_CHARS} characters of the body are not SSE` };
      }
      this.text += `${line}\n`;
      closed = this.scan(line) || closed;
    }
    // Parsing only when an outermost bracket closed keeps the work linear in the text received.
    if (closed) return this.parsed() ?? { kind: 'pending' };
    return this.pending ? { kind: 'pending' } : { kind: 'none' };
  }

  /** The run of unframed text is over (SSE records resumed, or the body ended): what was it? */
  settle(): UnframedVerdict {
    if (!this.pending) return { kind: 'none' };
    return this.parsed() ?? { kind: 'invalid', message: 'gemini: the body holds text that is neither SSE nor a JSON error object' };
  }

  /** Follows brackets outside strings; true when an outermost `}` or `]` closed in this line. */
  private scan(line: string): boolean {
    let closed = false;
    for (const char of line) {
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (char === '\\') this.escaped = true;
        else if (char === '"') this.inString = false;
      } else if (char === '"') {
        this.inString = true;
      } else if (char === '{' || char === '[') {
        this.depth += 1;
      } else if ((char === '}' || char === ']') && this.depth > 0) {
        this.depth -= 1;
        if (this.depth === 0) closed = true;
      }
    }
    return closed;
  }

  /** The verdict on text that parses as JSON; undefined while it does not. */
  private parsed(): UnframedVerdict | undefined {
    let value: unknown;
    try {
      value = JSON.parse(this.text);
    } catch {
      return undefined;
    }
    const body = Array.isArray(value) && value.length === 1 ? (value[0] as unknown) : value;
    const error = isObject(body) ? body['error'] : undefined;
    if (isObject(error)) return { kind: 'error', error };
    return { kind: 'invalid', message: 'gemini: the body holds JSON outside SSE records that is not an error object' };
  }
}

function fieldName(line: string): string {
  const colon = line.indexOf(':');
  return colon < 0 ? line : line.slice(0, colon);
}
