import { err, ok, type Result } from '@llm-stream/contract';
import { ApiKeyFileWatcher, readApiKeyFileVersion } from './api-key-file.js';
import { ApiKeys, parseApiKeys, type ApiKeysError } from './api-keys.js';
import type { JsonLogger } from './json-logger.js';

/** The two ways a service is given its keys (both services read the same ones). */
export interface ApiKeySettings {
  readonly GATEWAY_API_KEYS: string;
  readonly GATEWAY_API_KEYS_FILE: string;
}

export interface LoadedApiKeys {
  readonly keys: ApiKeys;
  /** Set when the keys come from a file: it keeps `keys` equal to the file until closed. */
  readonly watcher: ApiKeyFileWatcher | undefined;
}

const UNSET_KEYS = '[]';

/**
 * The keys a service starts with: the file GATEWAY_API_KEYS_FILE names (watched and reloaded on change) or,
 * without one, GATEWAY_API_KEYS. Setting both is refused: which one wins would be a guess.
 */
export function loadApiKeys(settings: ApiKeySettings, logger: JsonLogger): Result<LoadedApiKeys, ApiKeysError> {
  const path = settings.GATEWAY_API_KEYS_FILE;
  if (path === '') {
    const table = parseApiKeys(settings.GATEWAY_API_KEYS);
    return table.ok ? ok({ keys: new ApiKeys(table.value), watcher: undefined }) : table;
  }
  if (settings.GATEWAY_API_KEYS.trim() !== UNSET_KEYS) {
    return err({
      code: 'invalid_config',
      variable: 'GATEWAY_API_KEYS_FILE',
      message: 'invalid configuration: GATEWAY_API_KEYS_FILE and GATEWAY_API_KEYS are both set (set one)',
    });
  }
  // One read: the table and the text the watcher compares against are the same version of the file.
  const { text: initialText, table } = readApiKeyFileVersion(path);
  if (!table.ok) return table;
  const keys = new ApiKeys(table.value);
  const watcher = new ApiKeyFileWatcher(path, keys, {
    reloaded: (count) => {
      // `keys`, not `api_keys`: the logger redacts fields named like secrets, and this is only a count.
      logger.info('api key file reloaded', { keys: count });
    },
    rejected: (error) => {
      logger.warn('api key file rejected: the last good keys stay in effect', { code: error.code, variable: error.variable, reason: error.message });
    },
  });
  watcher.start(initialText);
  return ok({ keys, watcher });
}
