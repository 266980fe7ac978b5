import { assertNever, err, ok, type ProviderName, type Result } from '@llm-stream/contract';

/** Where and how to call the provider for one stream. */
export interface UpstreamPlan {
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** The model the client asked for (for Gemini, taken out of the body or the query). */
  readonly model: string;
  /** The provider key sent in `headers`: it must never be recorded, even when the provider echoes it. */
  readonly secret: string;
}

export interface ProviderEndpoint {
  readonly baseUrl: string;
  readonly apiKey: string;
}

export interface UpstreamSettings {
  readonly openai: ProviderEndpoint;
  readonly anthropic: ProviderEndpoint & { readonly version: string };
  readonly gemini: ProviderEndpoint;
}

export interface RequestError {
  readonly code: 'invalid_request';
  readonly message: string;
}

/**
 * The upstream request for a client's body, passed through with the streaming switches forced: `stream:
 * true` everywhere, `stream_options.include_usage` for OpenAI chat, and for Gemini (whose model is part of the
 * URL) the model from the body's `model` field (removed from the body) or the `?model=` query parameter.
 */
export function planUpstream(
  provider: ProviderName,
  body: Record<string, unknown>,
  queryModel: string | undefined,
  settings: UpstreamSettings,
): Result<UpstreamPlan, RequestError> {
  const json = { 'content-type': 'application/json', accept: 'text/event-stream' };
  switch (provider) {
    case 'openai-chat': {
      const model = bodyModel(body);
      if (!model.ok) return model;
      const options = isRecord(body['stream_options']) ? body['stream_options'] : {};
      return ok({
        url: endpoint(settings.openai.baseUrl, '/v1/chat/completions'),
        headers: { ...json, authorization: `Bearer ${settings.openai.apiKey}` },
        body: JSON.stringify({ ...body, stream: true, stream_options: { ...options, include_usage: true } }),
        model: model.value,
        secret: settings.openai.apiKey,
      });
    }
    case 'openai-responses': {
      const model = bodyModel(body);
      if (!model.ok) return model;
      return ok({
        url: endpoint(settings.openai.baseUrl, '/v1/responses'),
        headers: { ...json, authorization: `Bearer ${settings.openai.apiKey}` },
        body: JSON.stringify({ ...body, stream: true }),
        model: model.value,
        secret: settings.openai.apiKey,
      });
    }
    case 'anthropic': {
      const model = bodyModel(body);
      if (!model.ok) return model;
      return ok({
        url: endpoint(settings.anthropic.baseUrl, '/v1/messages'),
        headers: { ...json, 'x-api-key': settings.anthropic.apiKey, 'anthropic-version': settings.anthropic.version },
        body: JSON.stringify({ ...body, stream: true }),
        model: model.value,
        secret: settings.anthropic.apiKey,
      });
    }
    case 'gemini': {
      const { model: fromBody, ...rest } = body;
      const model = typeof fromBody === 'string' && fromBody !== '' ? fromBody : queryModel;
      if (model === undefined || !MODEL_PATTERN.test(model)) {
        return err({ code: 'invalid_request', message: 'gemini needs the model in the body field "model" or the ?model= query parameter' });
      }
      if (fromBody !== undefined && typeof fromBody !== 'string') return err({ code: 'invalid_request', message: 'body field "model" must be a string' });
      return ok({
        url: endpoint(settings.gemini.baseUrl, `/v1beta/models/${encodeURIComponent(model)}:streamGenerateContent?alt=sse`),
        headers: { ...json, 'x-goog-api-key': settings.gemini.apiKey },
        body: JSON.stringify(rest),
        model,
        secret: settings.gemini.apiKey,
      });
    }
    default:
      return assertNever(provider, 'provider');
  }
}

/** Model names travel in NATS headers and events: printable, without control characters, bounded. */
// eslint-disable-next-line no-control-regex -- rejecting control characters is the point
const MODEL_PATTERN = /^[^\u0000-\u001f\u007f]{1,256}$/;

function bodyModel(body: Record<string, unknown>): Result<string, RequestError> {
  const model = body['model'];
  if (typeof model !== 'string' || !MODEL_PATTERN.test(model)) {
    return err({ code: 'invalid_request', message: 'body field "model" must be a non-empty string of at most 256 printable characters' });
  }
  return ok(model);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Joins without dropping a path prefix of the base URL (a proxy mounted under /openai, say). */
function endpoint(baseUrl: string, path: string): URL {
  return new URL(`${baseUrl.replace(/\/+$/, '')}${path}`);
}
