import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { attachCoreNats, startTelemetry } from '@llm-stream/nest-kit';
import { FrameworkLogger, JsonLogger, loadConfig, parseApiKeys } from '@llm-stream/service-kit';
import { AppModule } from './app.module.js';
import { GatewayConfig } from './config/gateway-config.js';
import { defaultRoutes, defaultRouteSecrets } from './routes/default-routes.js';
import { RouteSource, routeOrigin } from './routes/route-source.js';

function exitWithConfigError(variable: string, message: string): never {
  process.stderr.write(`${JSON.stringify({ level: 'error', service: 'gateway', msg: message, variable })}\n`);
  process.exit(1);
}

const loaded = loadConfig(GatewayConfig, process.env);
if (!loaded.ok) exitWithConfigError(loaded.error.variable, loaded.error.message);
const config = loaded.value;
const keys = parseApiKeys(config.GATEWAY_API_KEYS);
if (!keys.ok) exitWithConfigError(keys.error.variable, keys.error.message);
const telemetry = startTelemetry('gateway', config.TRACE_EXPORTER);
const logger = new JsonLogger('gateway', { level: config.LOG_LEVEL });
const origin = routeOrigin(config.GATEWAY_ROUTES, config.GATEWAY_ROUTES_FILE);
if (!origin.ok) exitWithConfigError('GATEWAY_ROUTES', origin.error.message);
const routes = RouteSource.load({
  origin: origin.value,
  defaults: defaultRoutes(config),
  env: { ...process.env, ...defaultRouteSecrets(config) },
  clock: Date.now,
  rejected: (error) => {
    logger.error('route file refused, the last good routes stay in force', { code: error.code, error: error.message });
  },
  reloaded: (count) => {
    logger.info('routes reloaded', { routes: count });
  },
});
if (!routes.ok) exitWithConfigError(origin.value.kind === 'file' ? 'GATEWAY_ROUTES_FILE' : 'GATEWAY_ROUTES', routes.error.message);

const app = await NestFactory.create<NestExpressApplication>(AppModule.register(config, keys.value, routes.value, logger, telemetry), {
  logger: new FrameworkLogger(logger),
  bodyParser: false,
  forceCloseConnections: true,
});
// Not strict: a body that is valid JSON but no object ("hello", 42) is told so, instead of "not valid JSON".
app.useBodyParser('json', { limit: config.MAX_BODY_BYTES, type: ['application/json', 'application/*+json'], strict: false });
app.enableShutdownHooks();
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
logger.info('gateway ready', { port: config.HTTP_PORT, nats: config.NATS_URL, keys: keys.value.size, routes: routes.value.current().names().length });
