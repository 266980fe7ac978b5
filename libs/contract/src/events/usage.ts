/**
 * Token usage as the provider reported it. `reasoning_tokens` and `cached_input_tokens` are present only
 * when non-zero. `output_tokens` includes reasoning tokens for every provider (Gemini's
 * `candidatesTokenCount + thoughtsTokenCount`).
 */
export interface Usage {
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly reasoning_tokens?: number;
  readonly cached_input_tokens?: number;
}
