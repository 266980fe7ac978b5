export { loadConfig, type ConfigError } from './load-config.js';
export { FrameworkLogger } from './framework-logger.js';
export { JsonLogger, isLogLevel, type JsonLoggerOptions, type LogFields, type LogLevel, type LogValue } from './json-logger.js';
export { ServiceConfig } from './service-config.js';
