import { readFileSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import { err, type Result } from '@llm-stream/contract';
import { parseApiKeys, type ApiKeys, type ApiKeysError, type ApiKeyTable } from './api-keys.js';

/** One read of the key file: its text (undefined when it cannot be read) and the table parsed from it. */
export interface ApiKeyFileVersion {
  readonly text: string | undefined;
  readonly table: Result<ApiKeyTable, ApiKeysError>;
}

/** Reads the key file once; a file that cannot be read is an error value like a file that does not parse. */
export function readApiKeyFileVersion(path: string): ApiKeyFileVersion {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const reason = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'unreadable';
    const message = `invalid configuration: GATEWAY_API_KEYS_FILE cannot be read (${reason})`;
    return { text: undefined, table: err({ code: 'invalid_config', variable: 'GATEWAY_API_KEYS_FILE', message }) };
  }
  return { text, table: parseApiKeys(text, 'GATEWAY_API_KEYS_FILE') };
}

/** Reads and parses the key file (see {@link readApiKeyFileVersion}). */
export function readApiKeyFile(path: string): Result<ApiKeyTable, ApiKeysError> {
  return readApiKeyFileVersion(path).table;
}

/** What a reload did: the service logs it (the watcher itself logs nothing). */
export interface ApiKeyFileListener {
  /** A new, valid table is in effect. */
  reloaded(keys: number): void;
  /** The file changed into something unusable: the last good table stays in effect. */
  rejected(error: ApiKeysError): void;
}

export interface ApiKeyFileWatcherOptions {
  /** Re-read after the last change event by this much: a writer's several events make one reload. */
  readonly settleMs?: number;
  /** Re-read this often regardless of events: a safety net for a watch that missed a change. */
  readonly pollIntervalMs?: number;
}

/**
 * Keeps {@link ApiKeys} equal to the key file. It watches the file's directory, not the file: Kubernetes
 * updates a Secret volume by writing a new timestamped directory and renaming a `..data` symlink over the old
 * one (the key file is a symlink through `..data`), so the file itself is never modified and a watch on it
 * would follow the old inode. Any event in the directory re-reads the file through its symlinks; a new text
 * replaces the table if it parses, and a bad one is rejected with its reason while the last good set stays.
 */
export class ApiKeyFileWatcher {
  private watcher: FSWatcher | undefined;
  private poll: NodeJS.Timeout | undefined;
  private settle: NodeJS.Timeout | undefined;
  private lastText: string | undefined;

  constructor(
    private readonly path: string,
    private readonly keys: ApiKeys,
    private readonly listener: ApiKeyFileListener,
    private readonly options: ApiKeyFileWatcherOptions = {},
  ) {}

  /** `initialText`: the text the current table was read from (a change is a different text). */
  start(initialText?: string): void {
    this.lastText = initialText ?? readApiKeyFileVersion(this.path).text;
    this.watcher = watch(dirname(this.path), { persistent: false }, (_event, name) => {
      // A null name (some platforms) could be anything: re-read.
      if (name === null || name === basename(this.path) || name.startsWith('..')) this.schedule();
    });
    this.watcher.on('error', () => {
      // The directory went away (an unmounted volume): the poll keeps trying, the last good set stays.
      this.watcher?.close();
      this.watcher = undefined;
    });
    this.poll = setInterval(() => {
      this.reload();
    }, this.options.pollIntervalMs ?? 30_000);
    this.poll.unref();
  }

  close(): void {
    this.watcher?.close();
    this.watcher = undefined;
    clearInterval(this.poll);
    clearTimeout(this.settle);
  }

  private schedule(): void {
    clearTimeout(this.settle);
    this.settle = setTimeout(() => {
      this.reload();
    }, this.options.settleMs ?? 100);
    this.settle.unref();
  }

  private reload(): void {
    const { text, table: parsed } = readApiKeyFileVersion(this.path);
    if (text === this.lastText) return;
    this.lastText = text;
    if (!parsed.ok) {
      this.listener.rejected(parsed.error);
      return;
    }
    this.keys.replace(parsed.value);
    this.listener.reloaded(parsed.value.size);
  }
}
