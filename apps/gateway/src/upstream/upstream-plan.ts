import { interactionsStreamingBody } from '@llm-stream/adapters';
import { assertNever, err, ok, type ProviderName, type Result } from '@llm-stream/contract';
import type { RouteResolution } from '../routes/route-table.js';
import { upstreamUrl } from './upstream-url.js';

/** Where and how to call the provider for one stream. */
export interface UpstreamPlan {
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** The model the client asked for (for Gemini, taken out of the body or the query); an alias stays the alias. */
  readonly model: string;
  /** The route the stream goes through. */
  readonly route: string;
  /** The provider key sent in `headers`: it must never be recorded, even when the provider echoes it. */
  readonly secret: string;
}

export interface RequestError {
  readonly code: 'invalid_request';
  readonly message: string;
}

/**
 * The model a client's body asks for: its `model` field, or for Gemini (whose model is part of the URL) the
 * body's `model` or the `?model=` query parameter.
 */
export function requestedModel(protocol: ProviderName, body: Record<string, unknown>, queryModel: string | undefined): Result<string, RequestError> {
  const fromBody = body['model'];
  if (protocol === 'gemini') {
    const model = typeof fromBody === 'string' && fromBody !== '' ? fromBody : queryModel;
    if (fromBody !== undefined && typeof fromBody !== 'string') return err({ code: 'invalid_request', message: 'body field "model" must be a string' });
    if (model === undefined || !MODEL_PATTERN.test(model)) {
      return err({ code: 'invalid_request', message: 'gemini needs the model in the body field "model" or the ?model= query parameter' });
    }
    return ok(model);
  }
  if (typeof fromBody !== 'string' || !MODEL_PATTERN.test(fromBody)) {
    return err({ code: 'invalid_request', message: 'body field "model" must be a non-empty string of at most 256 printable characters' });
  }
  return ok(fromBody);
}

/**
 * The upstream request for a client's body on a resolved route, passed through with the streaming switches
 * forced: `stream: true` everywhere (Gemini's `streamGenerateContent` streams by its URL instead),
 * `stream_options.include_usage` for OpenAI chat, the upstream model in the body (or, for Gemini and Azure
 * deployments, in the URL), the protocol's headers, the route's auth header and extra headers.
 */
export function planUpstream(
  target: RouteResolution,
  body: Record<string, unknown>,
  model: string,
  context: { readonly anthropicVersion: string },
): UpstreamPlan {
  const { route, upstreamModel } = target;
  const json = { 'content-type': 'application/json', accept: 'text/event-stream' };
  const common = { url: upstreamUrl(route, upstreamModel), model, route: route.name, secret: target.secret };
  const headers = (own: Readonly<Record<string, string>>): Record<string, string> => ({ ...json, ...own, ...route.headers, ...target.credentials });
  switch (route.protocol) {
    case 'openai-chat': {
      const options = isRecord(body['stream_options']) ? body['stream_options'] : {};
      return {
        ...common,
        headers: headers({}),
        body: JSON.stringify({ ...body, model: upstreamModel, stream: true, stream_options: { ...options, include_usage: true } }),
      };
    }
    case 'openai-responses':
      return { ...common, headers: headers({}), body: JSON.stringify({ ...body, model: upstreamModel, stream: true }) };
    case 'anthropic':
      return {
        ...common,
        headers: headers({ 'anthropic-version': context.anthropicVersion }),
        body: JSON.stringify({ ...body, model: upstreamModel, stream: true }),
      };
    case 'gemini': {
      const { model: _inUrl, ...rest } = body;
      return { ...common, headers: headers({}), body: JSON.stringify(rest) };
    }
    case 'gemini-interactions':
      return { ...common, headers: headers({}), body: JSON.stringify(interactionsStreamingBody(body, upstreamModel)) };
    default:
      return assertNever(route.protocol, 'protocol');
  }
}

/** Model names travel in NATS headers and events: printable, without control characters, bounded. */
// eslint-disable-next-line no-control-regex -- rejecting control characters is the point
const MODEL_PATTERN = /^[^\u0000-\u001f\u007f]{1,256}$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
