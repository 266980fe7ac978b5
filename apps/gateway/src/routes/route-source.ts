import { readFileSync } from 'node:fs';
import { err, ok, type Result } from '@llm-stream/contract';
import { fileFingerprint } from './file-fingerprint.js';
import { parseRouteConfig, type RouteConfigError } from './parse-route-config.js';
import type { Route } from './route.js';
import { RouteTable } from './route-table.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Where the route configuration comes from: GATEWAY_ROUTES, GATEWAY_ROUTES_FILE, or neither. */
export type RouteOrigin = { readonly kind: 'none' } | { readonly kind: 'env'; readonly json: string } | { readonly kind: 'file'; readonly path: string };

export interface RouteSourceOptions {
  readonly origin: RouteOrigin;
  readonly defaults: readonly Route[];
  readonly env: Env;
  readonly clock: () => number;
  /** A changed file that was refused: the last good table stays in force. */
  readonly rejected: (error: RouteConfigError) => void;
  /** A changed file is in force: its routes' secrets must be redacted from now on. */
  readonly reloaded: (table: RouteTable) => void;
  /** How often the file is looked at (one `stat`), at most. */
  readonly checkIntervalMs?: number;
}

/**
 * The route table in force. From a file it is re-read when the file changed (looked at on use, at most once
 * per check interval; `stat` follows the `..data` symlink Kubernetes swaps, so a ConfigMap update is seen);
 * a new version that does not validate, or whose secrets are missing, is refused and the last good table
 * stays. At start there is no last good table: an invalid configuration is an error.
 */
export class RouteSource {
  private lastCheck: number;
  private fingerprint: string | undefined;

  private constructor(
    private table: RouteTable,
    private readonly options: RouteSourceOptions,
  ) {
    this.lastCheck = options.clock();
    this.fingerprint = options.origin.kind === 'file' ? fileFingerprint(options.origin.path) : undefined;
  }

  static load(options: RouteSourceOptions): Result<RouteSource, RouteConfigError> {
    const table = build(options);
    return table.ok ? ok(new RouteSource(table.value, options)) : table;
  }

  /** The table to route the next stream with. */
  current(): RouteTable {
    const { origin, clock, checkIntervalMs = 1_000 } = this.options;
    if (origin.kind !== 'file' || clock() - this.lastCheck < checkIntervalMs) return this.table;
    this.lastCheck = clock();
    const fingerprint = fileFingerprint(origin.path);
    if (fingerprint === this.fingerprint) return this.table;
    this.fingerprint = fingerprint;
    const table = build(this.options);
    if (table.ok) {
      this.table = table.value;
      this.options.reloaded(table.value);
    } else {
      this.options.rejected(table.error);
    }
    return this.table;
  }
}

function build(options: RouteSourceOptions): Result<RouteTable, RouteConfigError> {
  const text = configText(options.origin);
  if (!text.ok) return text;
  const config = parseRouteConfig(text.value);
  if (!config.ok) return err({ code: 'invalid_routes', message: `${originName(options.origin)} ${config.error.message}` });
  const table = RouteTable.build(config.value, options.defaults, options.env);
  return table.ok ? table : err({ code: 'invalid_routes', message: `${originName(options.origin)} ${table.error.message}` });
}

function configText(origin: RouteOrigin): Result<string, RouteConfigError> {
  switch (origin.kind) {
    case 'none':
      return ok('{}');
    case 'env':
      return ok(origin.json);
    case 'file':
      try {
        return ok(readFileSync(origin.path, 'utf8'));
      } catch (error) {
        return err({ code: 'invalid_routes', message: `GATEWAY_ROUTES_FILE ${origin.path} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` });
      }
  }
}

function originName(origin: RouteOrigin): string {
  return origin.kind === 'file' ? `GATEWAY_ROUTES_FILE ${origin.path}:` : 'GATEWAY_ROUTES';
}

/** GATEWAY_ROUTES or GATEWAY_ROUTES_FILE, not both. */
export function routeOrigin(json: string, path: string): Result<RouteOrigin, RouteConfigError> {
  if (json.trim() !== '' && path.trim() !== '') return err({ code: 'invalid_routes', message: 'set GATEWAY_ROUTES or GATEWAY_ROUTES_FILE, not both' });
  if (path.trim() !== '') return ok({ kind: 'file', path });
  return json.trim() === '' ? ok({ kind: 'none' }) : ok({ kind: 'env', json });
}
