import { assertNever, type ProviderName } from '@llm-stream/contract';

/** The errors the replay provider itself raises on a provider endpoint, before any frame. */
export type ProviderErrorKind = 'unauthorized' | 'not_found' | 'invalid_request';

export interface ProviderErrorResponse {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

const STATUS: Readonly<Record<ProviderErrorKind, number>> = { unauthorized: 401, not_found: 404, invalid_request: 400 };

/**
 * An error in the body shape the provider uses, so a gateway's error mapping sees what it would see live:
 * OpenAI `{"error":{message,type,param,code}}`
 * (https://platform.openai.com/docs/guides/error-codes), Anthropic `{"type":"error","error":{type,message},
 * "request_id"}` (https://docs.anthropic.com/en/api/errors), Google `{"error":{code,message,status}}`
 * pretty-printed as Google does (https://ai.google.dev/gemini-api/docs/troubleshooting), the Interactions API
 * `{"error":{code,message}}` with a string code (https://ai.google.dev/gemini-api/docs/api-errors).
 */
export function providerError(
  provider: ProviderName,
  kind: ProviderErrorKind,
  message: string,
  requestId: string,
): ProviderErrorResponse {
  const status = STATUS[kind];
  switch (provider) {
    case 'openai-chat':
    case 'openai-responses':
      return json(status, { error: { message, type: 'invalid_request_error', param: null, code: openAiCode(kind) } });
    case 'anthropic':
      return json(status, { type: 'error', error: { type: anthropicType(kind), message }, request_id: requestId });
    case 'gemini':
      return {
        status,
        contentType: 'application/json; charset=UTF-8',
        body: JSON.stringify({ error: { code: status, message, status: googleStatus(kind) } }, null, 2) + '\n',
      };
    case 'gemini-interactions':
      return json(status, { error: { code: interactionsCode(kind), message } });
    default:
      return assertNever(provider, 'provider');
  }
}

function openAiCode(kind: ProviderErrorKind): string | null {
  switch (kind) {
    case 'unauthorized':
      return 'invalid_api_key';
    case 'not_found':
      return 'model_not_found';
    case 'invalid_request':
      return null;
    default:
      return assertNever(kind, 'error kind');
  }
}

function anthropicType(kind: ProviderErrorKind): string {
  switch (kind) {
    case 'unauthorized':
      return 'authentication_error';
    case 'not_found':
      return 'not_found_error';
    case 'invalid_request':
      return 'invalid_request_error';
    default:
      return assertNever(kind, 'error kind');
  }
}

function interactionsCode(kind: ProviderErrorKind): string {
  switch (kind) {
    case 'unauthorized':
      return 'authentication';
    case 'not_found':
      return 'model_not_found';
    case 'invalid_request':
      return 'invalid_request';
    default:
      return assertNever(kind, 'error kind');
  }
}

function googleStatus(kind: ProviderErrorKind): string {
  switch (kind) {
    case 'unauthorized':
      return 'UNAUTHENTICATED';
    case 'not_found':
      return 'NOT_FOUND';
    case 'invalid_request':
      return 'INVALID_ARGUMENT';
    default:
      return assertNever(kind, 'error kind');
  }
}

function json(status: number, body: unknown): ProviderErrorResponse {
  return { status, contentType: 'application/json', body: JSON.stringify(body) };
}
