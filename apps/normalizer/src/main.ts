import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { attachCoreNats, attachJetStream, startTelemetry } from '@llm-stream/nest-kit';
import { FrameworkLogger, JsonLogger, loadConfig } from '@llm-stream/service-kit';
import { AppModule } from './app.module.js';
import { NormalizerConfig } from './config/normalizer-config.js';

const loaded = loadConfig(NormalizerConfig, process.env);
if (!loaded.ok) {
  process.stderr.write(`${JSON.stringify({ level: 'error', service: 'normalizer', msg: loaded.error.message, variable: loaded.error.variable })}\n`);
  process.exit(1);
}
const config = loaded.value;
const telemetry = startTelemetry('normalizer', config.TRACE_EXPORTER);
const logger = new JsonLogger('normalizer', { level: config.LOG_LEVEL });

const app = await NestFactory.create(AppModule.register(config, logger, telemetry), { logger: new FrameworkLogger(logger) });
app.enableShutdownHooks();
// Gateway leases on core NATS; work items from the durable consumer on LLM_WORK (it fails to start if that
// consumer cannot be set up).
attachCoreNats(app, logger);
attachJetStream(app);
await app.startAllMicroservices();
await app.listen(config.HTTP_PORT, config.HTTP_HOST);
logger.info('normalizer ready', { port: config.HTTP_PORT, nats: config.NATS_URL });
