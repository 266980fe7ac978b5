// What the quick start runs with, from the environment. It binds 127.0.0.1 unless QUICKSTART_HOST says
// otherwise (the demo API key is well known), and every port can be moved when one is taken.
import { join } from 'node:path';

const PORT_SETTINGS = [
  ['gateway', 'GATEWAY_PORT', 8080],
  ['normalizer', 'NORMALIZER_PORT', 8081],
  ['audit-log', 'AUDIT_PORT', 8082],
  ['replay-provider', 'REPLAY_PORT', 8787],
];

/** A setting that cannot be used: named, so the launcher can say which variable to fix. */
export class SettingError extends Error {
  constructor(variable, message) {
    super(`${variable}: ${message}`);
    this.variable = variable;
  }
}

function port(env, variable, fallback) {
  const text = env[variable];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > 65535) throw new SettingError(variable, `must be a port number from 1 to 65535, got ${JSON.stringify(text)}`);
  return value;
}

/** Reads the settings; throws SettingError for a bad value. */
export function readSettings(env, root) {
  const ports = {};
  for (const [service, variable, fallback] of PORT_SETTINGS) ports[service] = port(env, variable, fallback);
  const natsUrl = env.NATS_URL ?? 'nats://127.0.0.1:4222';
  let parsed;
  try {
    parsed = new URL(natsUrl);
  } catch {
    throw new SettingError('NATS_URL', `must be a URL like nats://127.0.0.1:4222, got ${JSON.stringify(natsUrl)}`);
  }
  const state = env.QUICKSTART_DIR ?? join(root, 'tmp', 'quickstart');
  return {
    host: env.QUICKSTART_HOST ?? '127.0.0.1',
    ports,
    portVariables: Object.fromEntries(PORT_SETTINGS.map(([service, variable]) => [service, variable])),
    natsUrl,
    natsHost: parsed.hostname,
    natsPort: Number(parsed.port || 4222),
    state,
    logs: join(state, 'logs'),
    verbose: Boolean(env.QUICKSTART_VERBOSE),
  };
}
