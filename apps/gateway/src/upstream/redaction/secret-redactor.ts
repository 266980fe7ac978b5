import type { JsonValue } from '@llm-stream/contract';
import { secretCutPatterns, secretPatterns } from './secret-forms.js';

/** What replaces a secret, in every form it was found in. */
export const REDACTED = '[redacted]';

/** Shorter values are not real keys, and would match ordinary text. */
const MIN_SECRET_LENGTH = 8;

/**
 * Removes every secret the gateway knows (all provider keys, of every route) from text before it leaves the
 * process: the one redaction applied where raw trace records are built (see redactRecord). Each secret is
 * matched as is and in the escaped and encoded forms of {@link secretPatterns}; where a text ends at a cut, a
 * secret's first 8 characters or more at its end are matched too ({@link redactCut}). What it cannot catch: a
 * secret split across two records (two SSE frames, two deltas), since each record is published as it arrives;
 * and any encoding not listed there (hex, gzip, a secret reversed or spelled out by a model).
 */
export class SecretRedactor {
  private readonly secrets = new Set<string>();
  private pattern: RegExp | undefined;
  private cutPattern: RegExp | undefined;

  constructor(secrets: Iterable<string> = []) {
    for (const secret of secrets) this.register(secret);
  }

  /** Adds a secret (idempotent); values shorter than 8 characters are ignored. */
  register(secret: string): void {
    if (secret.length < MIN_SECRET_LENGTH || this.secrets.has(secret)) return;
    this.secrets.add(secret);
    // Longest first: a secret that contains another is replaced whole.
    const secrets = [...this.secrets].sort((a, b) => b.length - a.length);
    this.pattern = new RegExp(secrets.flatMap(secretPatterns).join('|'), 'g');
    this.cutPattern = new RegExp(secrets.flatMap((value) => secretCutPatterns(value, MIN_SECRET_LENGTH)).join('|'));
  }

  get size(): number {
    return this.secrets.size;
  }

  /** The text with every form of every secret replaced; the very same string when there is none. */
  redact(text: string): string {
    if (this.pattern === undefined) return text;
    this.pattern.lastIndex = 0;
    if (!this.pattern.test(text)) return text;
    return text.replace(this.pattern, REDACTED);
  }

  /**
   * For a text that ends where bytes were cut (an error body kept up to its limit, the partial frame left when
   * the body ended): {@link redact}, and a start of a secret of 8 characters or more at its very end, in any
   * form {@link redact} knows, replaced too. Elsewhere a secret is matched whole only.
   */
  redactCut(text: string): string {
    const redacted = this.redact(text);
    if (this.cutPattern === undefined) return redacted;
    const cut = this.cutPattern.exec(redacted);
    return cut === null ? redacted : `${redacted.slice(0, cut.index)}${REDACTED}`;
  }

  /** A JSON value with every string (member names included) redacted; the same value when nothing changed. */
  redactJson(value: JsonValue): JsonValue {
    if (typeof value === 'string') return this.redact(value);
    if (typeof value !== 'object' || value === null) return value;
    if (isJsonArray(value)) {
      const items = value.map((item) => this.redactJson(item));
      return items.every((item, index) => item === value[index]) ? value : items;
    }
    let changed = false;
    const entries: [string, JsonValue][] = [];
    for (const [name, member] of Object.entries(value)) {
      const redacted: [string, JsonValue] = [this.redact(name), this.redactJson(member)];
      if (redacted[0] !== name || redacted[1] !== member) changed = true;
      entries.push(redacted);
    }
    return changed ? Object.fromEntries(entries) : value;
  }
}

function isJsonArray(value: JsonValue): value is readonly JsonValue[] {
  return Array.isArray(value);
}
