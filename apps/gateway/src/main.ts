import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { CONTRACT_VERSION } from '@llm-stream/contract';
import { attachCoreNats, serveOpenApi, startTelemetry } from '@llm-stream/nest-kit';
import { FrameworkLogger, JsonLogger, loadApiKeys, loadConfig } from '@llm-stream/service-kit';
import { AppModule } from './app.module.js';
import { GatewayConfig } from './config/gateway-config.js';
import { jsonBody } from './http/json-body.middleware.js';
import { defaultRoutes, defaultRouteSecrets } from './routes/default-routes.js';
import { RouteSource, routeOrigin } from './routes/route-source.js';
import { SecretRedactor } from './upstream/redaction/secret-redactor.js';

function exitWithConfigError(variable: string, message: string): never {
  process.stderr.write(`${JSON.stringify({ level: 'error', service: 'gateway', msg: message, variable })}\n`);
  process.exit(1);
}

const loaded = loadConfig(GatewayConfig, process.env);
if (!loaded.ok) exitWithConfigError(loaded.error.variable, loaded.error.message);
const config = loaded.value;
const logger = new JsonLogger('gateway', { level: config.LOG_LEVEL });
// From GATEWAY_API_KEYS, or from GATEWAY_API_KEYS_FILE, then watched: a rotated key works without a restart.
const keys = loadApiKeys(config, logger);
if (!keys.ok) exitWithConfigError(keys.error.variable, keys.error.message);
const telemetry = startTelemetry('gateway', config.TRACE_EXPORTER);
const origin = routeOrigin(config.GATEWAY_ROUTES, config.GATEWAY_ROUTES_FILE);
if (!origin.ok) exitWithConfigError('GATEWAY_ROUTES', origin.error.message);
// Every provider key this gateway sends upstream, of every route: none may leave it, in any form (redactRecord).
const redactor = new SecretRedactor([config.OPENAI_API_KEY, config.ANTHROPIC_API_KEY, config.GEMINI_API_KEY]);
const routes = RouteSource.load({
  origin: origin.value,
  defaults: defaultRoutes(config),
  env: { ...process.env, ...defaultRouteSecrets(config) },
  clock: Date.now,
  rejected: (error) => {
    logger.error('route file refused, the last good routes stay in force', { code: error.code, error: error.message });
  },
  reloaded: (table) => {
    for (const secret of table.secrets()) redactor.register(secret);
    logger.info('routes reloaded', { routes: table.names().length });
  },
});
if (!routes.ok) exitWithConfigError(origin.value.kind === 'file' ? 'GATEWAY_ROUTES_FILE' : 'GATEWAY_ROUTES', routes.error.message);
for (const secret of routes.value.current().secrets()) redactor.register(secret);

const app = await NestFactory.create<NestExpressApplication>(AppModule.register(config, keys.value.keys, routes.value, redactor, logger, telemetry), {
  logger: new FrameworkLogger(logger),
  bodyParser: false,
  forceCloseConnections: true,
});
// Our own JSON body reader, not the body parser: it answers 413 before reading a body declared too large (the
// body parser reads it all first) and bounds the nesting depth (a 400, not a stack overflow later).
app.use(jsonBody({ maxBytes: config.MAX_BODY_BYTES, maxDepth: config.MAX_JSON_DEPTH }));
app.enableShutdownHooks();
serveOpenApi(app, {
  title: 'llm-stream gateway',
  description: 'Streams of provider calls as contract events (text/event-stream), resumable and cancellable.',
  version: CONTRACT_VERSION,
});
await app.init();
// The control plane (cancel requests, reader notices) listens before the first HTTP request.
attachCoreNats(app, logger);
await app.startAllMicroservices();
// Listened on directly for the backlog option: Nest's listen() has no way to pass it, and Node's default (511)
// overflows when thousands of clients connect at once.
await new Promise<void>((resolve, reject) => {
  const server = app.getHttpServer();
  server.once('error', reject);
  server.listen({ port: config.HTTP_PORT, host: config.HTTP_HOST, backlog: config.HTTP_BACKLOG }, () => {
    server.off('error', reject);
    resolve();
  });
});
// `keys`, not `api_keys`: the logger redacts fields named like secrets, and this is only a count.
logger.info('gateway ready', { port: config.HTTP_PORT, nats: config.NATS_URL, keys: keys.value.keys.table.size, routes: routes.value.current().names().length });
