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
  type ApiKeyTable,
  type AuthenticatedRequest,
  type Unauthenticated,
} from './api-keys.js';
export { HttpApiError, type ApiErrorBody } from './http-api-error.js';
export { errorCode } from './error-code.js';
