import 'reflect-metadata';
import { fileURLToPath } from 'node:url';
import { NestFactory } from '@nestjs/core';
import { CONTRACT_VERSION } from '@llm-stream/contract';
import { attachJetStream, serveOpenApi, startTelemetry } from '@llm-stream/nest-kit';
import { FrameworkLogger, JsonLogger, loadApiKeys, loadConfig } from '@llm-stream/service-kit';
import { AppModule } from './app.module.js';
import { AuditConfig } from './config/audit-config.js';

function exitWithConfigError(variable: string, message: string): never {
  process.stderr.write(`${JSON.stringify({ level: 'error', service: 'audit-log', msg: message, variable })}\n`);
  process.exit(1);
}

const loaded = loadConfig(AuditConfig, process.env);
if (!loaded.ok) exitWithConfigError(loaded.error.variable, loaded.error.message);
const config = loaded.value;
// Here, not in the config class: only the running app (ESM) knows where it is; jest loads the class as CJS.
if (config.AUDIT_CONSOLE_DIR === '') config.AUDIT_CONSOLE_DIR = fileURLToPath(new URL('../../console/dist', import.meta.url));
const logger = new JsonLogger('audit-log', { level: config.LOG_LEVEL });
// From GATEWAY_API_KEYS, or from GATEWAY_API_KEYS_FILE, then watched: a rotated key works without a restart.
const keys = loadApiKeys(config, logger);
if (!keys.ok) exitWithConfigError(keys.error.variable, keys.error.message);
const telemetry = startTelemetry('audit-log', config.TRACE_EXPORTER);

const app = await NestFactory.create(AppModule.register(config, keys.value.keys, logger, telemetry), {
  logger: new FrameworkLogger(logger),
  bodyParser: false,
  forceCloseConnections: true,
});
app.enableShutdownHooks();
serveOpenApi(app, {
  title: 'llm-stream audit log',
  description: "The tenant's stored streams: records, events, raw traces, chain verification and counts.",
  version: CONTRACT_VERSION,
});
// Ingestion: the two durable consumers (it fails to start if one cannot be set up).
attachJetStream(app);
await app.startAllMicroservices();
await app.listen(config.HTTP_PORT, config.HTTP_HOST);
logger.info('audit-log ready', {
  port: config.HTTP_PORT,
  nats: config.NATS_URL,
  backend: config.AUDIT_DATABASE_URL === '' ? 'sqlite' : 'postgres',
  keys: keys.value.keys.table.size,
});
