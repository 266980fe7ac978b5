/**
 * How a client calls Gemini's Interactions API for a stream, for the services that speak it (the gateway's
 * upstream plan and default route, the replay provider's endpoint): everything about this protocol that is
 * not an operator's setting lives beside its adapter. The base URL and the key stay in the gateway's config
 * (`GEMINI_BASE_URL`, `GEMINI_API_KEY`: the same host and key as `streamGenerateContent`).
 * https://ai.google.dev/api/interactions-api#creating-an-interaction
 */
export const GEMINI_INTERACTIONS_ENDPOINT = {
  /** `POST` path under the base URL; the model is in the body, not the path. */
  path: '/v1beta/interactions',
  /** The header that carries the API key (Google also accepts `?key=`; the SDKs send the header). */
  authHeader: 'x-goog-api-key',
} as const;

/** The upstream body of a stream: the client's body, the upstream model in it and streaming forced. */
export function interactionsStreamingBody(body: Readonly<Record<string, unknown>>, model: string): Record<string, unknown> {
  return { ...body, model, stream: true };
}
