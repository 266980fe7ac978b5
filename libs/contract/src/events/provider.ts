/** The provider protocols the gateway understands. Each has one adapter in `@llm-stream/adapters`. */
export const PROVIDERS = ['openai-chat', 'openai-responses', 'anthropic', 'gemini'] as const;

/** One of {@link PROVIDERS}. */
export type ProviderName = (typeof PROVIDERS)[number];

export function isProviderName(value: unknown): value is ProviderName {
  return typeof value === 'string' && (PROVIDERS as readonly string[]).includes(value);
}
