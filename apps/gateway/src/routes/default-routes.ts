import { GEMINI_INTERACTIONS_ENDPOINT } from '@llm-stream/adapters';
import type { Route } from './route.js';
import type { GatewayConfig } from '../config/gateway-config.js';

/**
 * The route of each protocol name, from the settings that predate routes (OPENAI_*, ANTHROPIC_*, GEMINI_*):
 * `POST /v1/streams/openai-chat` keeps working as before. A configured route of the same name replaces it.
 */
export function defaultRoutes(config: GatewayConfig): Route[] {
  const bearer = (variable: string) => ({ header: 'authorization', scheme: 'Bearer', secret: { kind: 'env', variable } }) as const;
  const plain = (header: string, variable: string) => ({ header, scheme: undefined, secret: { kind: 'env', variable } }) as const;
  const base = { pathStyle: { kind: 'default' }, headers: {}, limits: {} } as const;
  return [
    { ...base, name: 'openai-chat', protocol: 'openai-chat', baseUrl: config.OPENAI_BASE_URL, auth: bearer('OPENAI_API_KEY') },
    { ...base, name: 'openai-responses', protocol: 'openai-responses', baseUrl: config.OPENAI_BASE_URL, auth: bearer('OPENAI_API_KEY') },
    { ...base, name: 'anthropic', protocol: 'anthropic', baseUrl: config.ANTHROPIC_BASE_URL, auth: plain('x-api-key', 'ANTHROPIC_API_KEY') },
    { ...base, name: 'gemini', protocol: 'gemini', baseUrl: config.GEMINI_BASE_URL, auth: plain('x-goog-api-key', 'GEMINI_API_KEY') },
    // The Interactions API is served by the same host, with the same key, as streamGenerateContent.
    {
      ...base,
      name: 'gemini-interactions',
      protocol: 'gemini-interactions',
      baseUrl: config.GEMINI_BASE_URL,
      auth: plain(GEMINI_INTERACTIONS_ENDPOINT.authHeader, 'GEMINI_API_KEY'),
    },
  ];
}

/** The environment the default routes read their keys from: the gateway's settings of those names. */
export function defaultRouteSecrets(config: GatewayConfig): Record<string, string> {
  return { OPENAI_API_KEY: config.OPENAI_API_KEY, ANTHROPIC_API_KEY: config.ANTHROPIC_API_KEY, GEMINI_API_KEY: config.GEMINI_API_KEY };
}
