/**
 * Opaque provider data a client must send back on the next turn, carried byte-exact and keyed by provider,
 * for example `{"gemini": {"thought_signature": "Cr..."}}`, `{"anthropic": {"redacted_thinking": "Eq..."}}`
 * or `{"openai-responses": {"item_id": "rs_...", "encrypted_content": "gAAA..."}}`. Never shown as text.
 */
export type ProviderMetadata = Readonly<Record<string, Readonly<Record<string, JsonValue>>>>;

export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };
