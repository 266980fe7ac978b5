import type { JsonValue } from '@llm-stream/contract';
import { secretPatterns } from './secret-forms.js';

/** What replaces a secret, in every form it was found in. */
export const REDACTED = '[redacted]';

/** Shorter values are not real keys, and would match ordinary text. */
const MIN_SECRET_LENGTH = 8;

/**
 * Removes every secret the gateway knows (all provider keys, of every route) from text before it leaves the
 * process: the one redaction applied where raw trace records are built (see redactRecord). Each secret is
 * matched as is and in the escaped and encoded forms of {@link secretPatterns}. What it cannot catch: a secret
 * split across two records (two SSE frames, two deltas), since each record is published as it arrives;
 * and any encoding not listed there (hex, gzip, a secret reversed or spelled out by a model).
 */
export class SecretRedactor {
  private readonly secrets = new Set<string>();
  private pattern: RegExp | undefined;

  constructor(secrets: Iterable<string> = []) {
    for (const secret of secrets) this.register(secret);
  }

  /** Adds a secret (idempotent); values shorter than 8 characters are ignored. */
  register(secret: string): void {
    if (secret.length < MIN_SECRET_LENGTH || this.secrets.has(secret)) return;
    this.secrets.add(secret);
    // Longest first: a secret that contains another is replaced whole.
    const sources = [...this.secrets].sort((a, b) => b.length - a.length).flatMap(secretPatterns);
    this.pattern = new RegExp(sources.join('|'), 'g');
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
