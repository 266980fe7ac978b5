export { loadConfig, type ConfigError } from './load-config.js';
export { JsonLogger, isLogLevel, type JsonLoggerOptions, type LogFields, type LogLevel, type LogValue } from './json-logger.js';
