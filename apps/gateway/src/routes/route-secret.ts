import { readFileSync } from 'node:fs';
import { err, ok, type Result } from '@llm-stream/contract';
import { fileFingerprint } from './file-fingerprint.js';
import { describeSecretRef, type SecretRef } from './secret-ref.js';

export interface SecretUnavailable {
  readonly code: 'secret_unavailable';
  /** Names where the secret should be, never its value. */
  readonly message: string;
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * A route's credential. From the environment it is read once; from a file it is read again whenever the file
 * changed (checked at each use: one `stat`), so a token rotated by a sidecar is used by the next stream. A new
 * version that is unreadable or empty keeps the last good value (a writer caught mid-rewrite must not fail
 * streams); only at load must the secret exist.
 */
export class RouteSecret {
  private constructor(
    private readonly ref: SecretRef,
    private value: string,
    private fingerprint: string | undefined,
  ) {}

  static load(ref: SecretRef, env: Env): Result<RouteSecret, SecretUnavailable> {
    const missing = err<SecretUnavailable>({ code: 'secret_unavailable', message: `${describeSecretRef(ref)} is missing or empty` });
    if (ref.kind === 'env') {
      const value = env[ref.variable]?.trim() ?? '';
      return value === '' ? missing : ok(new RouteSecret(ref, value, undefined));
    }
    const fingerprint = fileFingerprint(ref.path);
    const value = readSecretFile(ref.path);
    return value === undefined ? missing : ok(new RouteSecret(ref, value, fingerprint));
  }

  /** The secret to send now. */
  current(): string {
    if (this.ref.kind === 'file') {
      const fingerprint = fileFingerprint(this.ref.path);
      if (fingerprint !== undefined && fingerprint !== this.fingerprint) {
        const value = readSecretFile(this.ref.path);
        if (value !== undefined) {
          this.value = value;
          this.fingerprint = fingerprint;
        }
      }
    }
    return this.value;
  }

  /** The last value read, without looking at the file again (for redaction). */
  get lastValue(): string {
    return this.value;
  }
}

/** The file's text without surrounding whitespace (files written by `echo` end in a newline); undefined if unreadable or empty. */
function readSecretFile(path: string): string | undefined {
  try {
    const value = readFileSync(path, 'utf8').trim();
    return value === '' ? undefined : value;
  } catch {
    return undefined;
  }
}
