/**
 * The provider protocols the gateway understands. Each has one adapter in `@llm-stream/adapters`.
 * `gemini` is `streamGenerateContent`; `gemini-interactions` is Gemini's Interactions API (contract 1.3.0).
 * The list grows in minor versions: a consumer that switches on `provider` keeps a default branch.
 */
export const PROVIDERS = ['openai-chat', 'openai-responses', 'anthropic', 'gemini', 'gemini-interactions'] as const;

/** One of {@link PROVIDERS}. */
export type ProviderName = (typeof PROVIDERS)[number];

export function isProviderName(value: unknown): value is ProviderName {
  return typeof value === 'string' && (PROVIDERS as readonly string[]).includes(value);
}
