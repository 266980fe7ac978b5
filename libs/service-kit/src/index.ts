export { loadConfig, type ConfigError } from './load-config.js';
export { FrameworkLogger } from './framework-logger.js';
export { JsonLogger, isLogLevel, type JsonLoggerOptions, type LogFields, type LogLevel, type LogValue } from './json-logger.js';
export { ServiceConfig } from './service-config.js';
export { natsSettings, type NatsSettings } from './nats-settings.js';
export {
  ApiKeys,
  parseApiKeys,
  presentedApiKey,
  principalFor,
  sha256Hex,
  type ApiKeyPrincipal,
  type ApiKeysError,
  type ApiKeysSource,
  type ApiKeyTable,
  type AuthenticatedRequest,
  type InsufficientScope,
  type Unauthenticated,
} from './api-keys.js';
export { API_KEY_SCOPES, DEFAULT_API_KEY_SCOPES, isApiKeyScope, type ApiKeyScope } from './api-key-scopes.js';
export { ApiKeyFileWatcher, readApiKeyFile, type ApiKeyFileListener, type ApiKeyFileWatcherOptions } from './api-key-file.js';
export { loadApiKeys, type ApiKeySettings, type LoadedApiKeys } from './load-api-keys.js';
export { HttpApiError, type ApiErrorBody } from './http-api-error.js';
export { errorCode } from './error-code.js';
