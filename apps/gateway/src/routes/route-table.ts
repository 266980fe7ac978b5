import { err, isProviderName, ok, type ProviderName, type Result } from '@llm-stream/contract';
import type { RouteConfigError } from './parse-route-config.js';
import type { ModelAlias, Route, RouteConfig, TenantAccess } from './route.js';
import { RouteSecret } from './route-secret.js';
import { describeSecretRef } from './secret-ref.js';

/** Where one stream goes: the route, the model to ask it for, and the credential header to send. */
export interface RouteResolution {
  readonly route: Route;
  /** The alias the client named, if its model was one. */
  readonly alias: string | undefined;
  /** The model sent upstream: the alias's model, else the client's. */
  readonly upstreamModel: string;
  /** The auth header (empty when the route takes none). */
  readonly credentials: Readonly<Record<string, string>>;
  /** The credential in `credentials`: it must never be recorded. */
  readonly secret: string;
}

/** Why a request cannot be routed; each code is one HTTP answer of the streams API. */
export type RouteRefusal =
  | { readonly code: 'unknown_route'; readonly message: string }
  | { readonly code: 'route_not_allowed'; readonly message: string }
  | { readonly code: 'alias_mismatch'; readonly message: string };

interface LoadedRoute {
  readonly route: Route;
  readonly secret: RouteSecret | undefined;
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The gateway's upstreams: the four default routes (named after their protocol, from the OPENAI_*,
 * ANTHROPIC_* and GEMINI_* settings) and the configured ones, which may replace a default. Model aliases and
 * per-tenant allow-lists are applied here, before anything is sent.
 */
export class RouteTable {
  private constructor(
    private readonly routes: ReadonlyMap<string, LoadedRoute>,
    private readonly aliases: ReadonlyMap<string, ModelAlias>,
    private readonly tenants: ReadonlyMap<string, TenantAccess>,
  ) {}

  /** Reads every route's secret: a configured route whose secret is missing refuses the whole configuration. */
  static build(config: RouteConfig, defaults: readonly Route[], env: Env): Result<RouteTable, RouteConfigError> {
    const loaded = new Map<string, LoadedRoute>();
    for (const route of [...defaults.filter((route) => !config.routes.has(route.name)), ...config.routes.values()]) {
      if (route.auth === undefined) {
        loaded.set(route.name, { route, secret: undefined });
        continue;
      }
      const secret = RouteSecret.load(route.auth.secret, env);
      // A default route without a key is kept without auth, as before routes existed (the upstream answers 401).
      if (!secret.ok && config.routes.has(route.name)) {
        return err({ code: 'invalid_routes', message: `route ${JSON.stringify(route.name)}: ${describeSecretRef(route.auth.secret)} is missing or empty` });
      }
      loaded.set(route.name, { route, secret: secret.ok ? secret.value : undefined });
    }
    return ok(new RouteTable(loaded, config.aliases, config.tenants));
  }

  /** Route names, for the 404 message. */
  names(): string[] {
    return [...this.routes.keys()];
  }

  /** Every route's current secret, for the gateway's redaction: a provider echoing any of them must not leak it. */
  secrets(): string[] {
    return [...new Set([...this.routes.values()].flatMap(({ secret }) => (secret === undefined ? [] : [secret.lastValue])))];
  }

  /**
   * The route for `POST /v1/streams/{name}` with the client's `model`. A model naming an alias is resolved when
   * `name` is the alias's route or its protocol (the default route); posted to another route of any kind, the
   * model is that upstream's own. A tenant with an allow-list (or covered by `*`) may use only the routes it
   * names when it names a route, and only the aliases it names when its model is an alias.
   */
  resolve(name: string, model: string, tenant: string): Result<RouteResolution, RouteRefusal> {
    const named = this.routes.get(name);
    if (named === undefined) {
      return err({ code: 'unknown_route', message: `unknown route ${JSON.stringify(name)} (${this.names().join(', ')})` });
    }
    const alias = this.aliases.get(model);
    const aliased = alias === undefined ? undefined : this.routes.get(alias.route);
    const viaAlias = alias !== undefined && aliased !== undefined && (alias.route === name || (isProviderName(name) && aliased.route.protocol === name));
    if (alias !== undefined && aliased !== undefined && !viaAlias && isProviderName(name) && alias.route !== name) {
      return err({
        code: 'alias_mismatch',
        message: `model alias ${JSON.stringify(model)} goes to route ${alias.route}, which speaks ${aliased.route.protocol}, not ${name}`,
      });
    }
    const target = viaAlias ? aliased : named;
    const access = this.tenants.get(tenant) ?? this.tenants.get('*');
    if (access !== undefined) {
      const allowed = viaAlias ? access.aliases.has(model) : access.routes.has(name);
      if (!allowed) {
        const what = viaAlias ? `model alias ${JSON.stringify(model)}` : `route ${JSON.stringify(name)}`;
        return err({ code: 'route_not_allowed', message: `tenant ${tenant} may not use ${what}` });
      }
    }
    const secret = target.secret?.current() ?? '';
    const auth = target.route.auth;
    const credentials: Record<string, string> = auth === undefined || secret === '' ? {} : { [auth.header]: auth.scheme === undefined ? secret : `${auth.scheme} ${secret}` };
    return ok({ route: target.route, alias: viaAlias ? model : undefined, upstreamModel: viaAlias ? alias.model : model, credentials, secret });
  }

  /** The protocol of a route name, if it is one. */
  protocolOf(name: string): ProviderName | undefined {
    return this.routes.get(name)?.route.protocol;
  }
}

