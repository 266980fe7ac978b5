/**
 * Opaque provider data a client must send back on the next turn, carried byte-exact and keyed by provider,
 * for example `{"gemini": {"thought_signature": "Cr..."}}`, `{"anthropic": {"redacted_thinking": "Eq..."}}`
 * `{"openai-responses": {"item_id": "rs_...", "encrypted_content": "gAAA..."}}` or, on a tool call of an
 * OpenAI-compatible server, `{"openai-chat": {"extra_content": {"google": {"thought_signature": "Ej..."}}}}`.
 * Never shown as text.
 */
export type ProviderMetadata = Readonly<Record<string, Readonly<Record<string, JsonValue>>>>;

export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };
