import type { ProviderName } from '@llm-stream/contract';
import type { SecretRef } from './secret-ref.js';

/**
 * How the upstream lays out its URL for a protocol.
 * - `default`: the provider's own API (`/v1/chat/completions`, `/v1/responses`, `/v1/messages`,
 *   `/v1beta/models/{model}:streamGenerateContent`), below the base URL's path (a proxy mounted under a prefix).
 * - `azure`: Azure OpenAI deployments, the model naming the deployment
 *   (`/openai/deployments/{model}/chat/completions?api-version=`; Responses: `/openai/responses?api-version=`),
 *   https://learn.microsoft.com/en-us/azure/ai-foundry/openai/reference
 * - `vertex`: Vertex AI's Gemini endpoint
 *   (`/v1/projects/{project}/locations/{location}/publishers/google/models/{model}:streamGenerateContent`),
 *   https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/inference
 */
export type PathStyle =
  | { readonly kind: 'default' }
  | { readonly kind: 'azure'; readonly apiVersion: string }
  | { readonly kind: 'vertex'; readonly project: string; readonly location: string };

/** The header that carries the upstream credential: `<header>: [<scheme> ]<secret>`. */
export interface RouteAuth {
  readonly header: string;
  /** `Bearer` for `authorization`; none for `api-key`, `x-api-key`, `x-goog-api-key`. */
  readonly scheme: string | undefined;
  readonly secret: SecretRef;
}

/** Per-route overrides of the gateway's upstream settings (absent fields keep the gateway's). */
export interface RouteLimits {
  readonly connectTimeoutMs?: number;
  readonly idleTimeoutMs?: number;
  readonly progressTimeoutMs?: number;
  readonly maxAttempts?: number;
}

/** One named upstream: where a stream goes and how it authenticates there. */
export interface Route {
  readonly name: string;
  readonly protocol: ProviderName;
  readonly baseUrl: string;
  readonly pathStyle: PathStyle;
  /** None: the upstream takes no credential (a local Ollama, say). */
  readonly auth: RouteAuth | undefined;
  /** Sent with every request of the route, after the protocol's own headers. */
  readonly headers: Readonly<Record<string, string>>;
  readonly limits: RouteLimits;
}

/** `"model": "<alias>"` sends the stream to `route` with `model` as the upstream model. */
export interface ModelAlias {
  readonly name: string;
  readonly route: string;
  readonly model: string;
}

/** The routes and aliases a tenant may use; a tenant without an entry may use everything. */
export interface TenantAccess {
  readonly routes: ReadonlySet<string>;
  readonly aliases: ReadonlySet<string>;
}

/** A validated route configuration (the file or GATEWAY_ROUTES), before secrets are read. */
export interface RouteConfig {
  readonly routes: ReadonlyMap<string, Route>;
  readonly aliases: ReadonlyMap<string, ModelAlias>;
  /** By tenant; the entry `*` applies to every tenant without one of its own. */
  readonly tenants: ReadonlyMap<string, TenantAccess>;
}
