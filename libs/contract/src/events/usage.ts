/**
 * Token usage as the provider reported it. The optional counts are present only when non-zero.
 * `output_tokens` includes reasoning tokens for every provider (Gemini's `candidatesTokenCount +
 * thoughtsTokenCount`).
 */
export interface Usage {
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly reasoning_tokens?: number;
  /** Input tokens read from the provider's prompt cache (Anthropic `cache_read_input_tokens`, OpenAI `cached_tokens`). */
  readonly cached_input_tokens?: number;
  /**
   * Input tokens written to the provider's prompt cache (since 1.2.0): Anthropic `cache_creation_input_tokens`,
   * OpenAI `cache_write_tokens`. Like cache reads, Anthropic counts them apart from `input_tokens` and OpenAI
   * within it.
   */
  readonly cache_creation_input_tokens?: number;
  /** The cache writes split by cache lifetime, as the provider reported them (since 1.2.0; Anthropic `cache_creation`). */
  readonly cache_creation?: CacheCreationUsage;
}

/**
 * Anthropic's `usage.cache_creation`: the cache writes per time-to-live. Present only when one of its counts is
 * non-zero; each count is kept as reported, zeros included.
 * https://docs.anthropic.com/en/api/messages#response-usage
 */
export interface CacheCreationUsage {
  readonly ephemeral_5m_input_tokens?: number;
  readonly ephemeral_1h_input_tokens?: number;
}
